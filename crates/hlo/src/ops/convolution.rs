//! `convolution`: spatial dimensions use the window arithmetic of `reduce-window`; the input
//! feature of the lhs and the input feature of the kernel share a range variable; feature groups
//! pick the lhs features of the result feature's group, and batch groups its lhs batch entries
//! (as StableHLO defines them: the lhs split along its batch dimension and the kernel along its
//! output features into `batch_group_count` contiguous parts, part `g` of the result's features
//! convolving part `g` of the batch).

use xla_indexing_core::Expr;

use super::reduction::{check_window, window, window_read, windowed_map};
use super::{OpContext, OperandAccess, OrAnalysisError};
use crate::access::Access;
use crate::attrs::{AttrValue, ConvDimLabels};
use crate::error::HloError;

/// Output to the input (lhs) and the kernel (rhs).
pub fn output_to_input(cx: &OpContext<'_>) -> Result<Vec<OperandAccess>, HloError> {
    cx.expect_operands(2)?;
    let (lhs, rhs, out) = (
        cx.operand_array(0)?,
        cx.operand_array(1)?,
        cx.result_array()?,
    );
    let Some(AttrValue::DimLabels(labels)) = cx.instr.attr("dim_labels") else {
        return Err(cx.error("missing attribute dim_labels"));
    };
    let ConvDimLabels {
        input: li,
        kernel: ki,
        output: oi,
    } = labels;
    let n = li.spatial.len();
    if lhs.rank() != n + 2 || rhs.rank() != n + 2 || out.rank() != n + 2 {
        return Err(cx.error(format!(
            "dim_labels describe rank {}, the shapes differ",
            n + 2
        )));
    }
    let groups = cx.instr.int("feature_group_count").unwrap_or(1);
    let batch_groups = cx.instr.int("batch_group_count").unwrap_or(1);
    let (c_in, c_out) = (lhs.dims[li.feature], out.dims[oi.feature]);
    if groups < 1 || c_in % groups != 0 || c_out % groups != 0 {
        return Err(cx.error(format!(
            "feature_group_count={groups} does not divide {c_in} input and {c_out} output features"
        )));
    }
    let batch = lhs.dims[li.batch];
    if batch_groups < 1 || batch % batch_groups != 0 || c_out % batch_groups != 0 {
        return Err(cx.error(format!(
            "batch_group_count={batch_groups} does not divide the input batch {batch} and {c_out} output features"
        )));
    }
    if groups > 1 && batch_groups > 1 {
        return Err(cx.error("feature_group_count and batch_group_count are both greater than 1"));
    }
    let group_in = c_in / groups;
    if rhs.dims[ki.batch] != group_in
        || rhs.dims[ki.feature] != c_out
        || out.dims[oi.batch] != batch / batch_groups
    {
        return Err(cx.error(format!(
            "kernel {:?} does not fit input {:?} and result {:?} with {groups} feature groups and {batch_groups} batch groups",
            rhs.dims, lhs.dims, out.dims
        )));
    }
    let win = window(cx, n)?;
    // Range variables: s0 the input feature within the group, then one per window position.
    let mut lhs_results = vec![Expr::zero(); n + 2];
    let mut rhs_results = vec![Expr::zero(); n + 2];
    let mut constraints = Vec::new();
    let feature = Expr::sym(0);
    // Result feature `f` is in batch group `f floordiv (c_out / batch_groups)`, which reads the
    // lhs batch entries `group * (batch / batch_groups) + b`.
    lhs_results[li.batch] = if batch_groups > 1 {
        Expr::dim(oi.feature as u32)
            .floor_div(c_out / batch_groups)
            .and_then(|g| g.checked_scale(batch / batch_groups))
            .and_then(|g| g.checked_add(&Expr::dim(oi.batch as u32)))
            .or_err(cx)?
    } else {
        Expr::dim(oi.batch as u32)
    };
    lhs_results[li.feature] = if groups > 1 {
        Expr::dim(oi.feature as u32)
            .floor_div(c_out / groups)
            .and_then(|g| g.checked_scale(group_in))
            .and_then(|g| g.checked_add(&feature))
            .or_err(cx)?
    } else {
        feature.clone()
    };
    rhs_results[ki.batch] = feature;
    rhs_results[ki.feature] = Expr::dim(oi.feature as u32);
    let mut sizes = vec![group_in];
    for (k, w) in win.iter().enumerate() {
        let (i_in, i_ker, i_out) = (li.spatial[k], ki.spatial[k], oi.spatial[k]);
        if w.size != rhs.dims[i_ker] {
            return Err(cx.error(format!(
                "window size {} differs from kernel spatial dimension {i_ker} of size {}",
                w.size, rhs.dims[i_ker]
            )));
        }
        check_window(cx, k, w, lhs.dims[i_in], out.dims[i_out])?;
        let s = Expr::sym(k as u32 + 1);
        let (e, c) = window_read(cx, Expr::dim(i_out as u32), s.clone(), w, lhs.dims[i_in])?;
        lhs_results[i_in] = e;
        constraints.extend(c);
        rhs_results[i_ker] = if w.reversal {
            s.checked_scale(-1)
                .and_then(|x| x.checked_add_const(w.size - 1))
                .or_err(cx)?
        } else {
            s
        };
        sizes.push(w.size);
    }
    // A kernel element is only used where it meets a real input element: both maps share the
    // window constraints.
    let lhs_map = windowed_map(lhs_results, &out.dims, &sizes, constraints.clone());
    let rhs_map = windowed_map(rhs_results, &out.dims, &sizes, constraints);
    Ok(vec![
        OperandAccess {
            operand: 0,
            leaf: 0,
            access: Access::plain(lhs_map),
        },
        OperandAccess {
            operand: 1,
            leaf: 0,
            access: Access::plain(rhs_map),
        },
    ])
}
