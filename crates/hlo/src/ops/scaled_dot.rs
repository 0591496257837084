//! `scaled-dot(lhs, rhs, lhs_scale, rhs_scale)`: a `dot` of `lhs` and `rhs`, each element
//! multiplied by its block scale first. A scale has its operand's rank; each of its elements
//! covers a block of `operand_dim / scale_dim` operand elements along every dimension, so the
//! operand element at `i` is scaled by the scale element at `i floordiv (operand_dim /
//! scale_dim)` (XLA's `RescaleIndexingMap`).
//!
//! ```text
//! d = f32[4,6] scaled-dot(f32[4,8] a, f32[8,6] b, f32[4,2] sa, f32[2,6] sb),
//!       lhs_contracting_dims={1}, rhs_contracting_dims={0}
//! output -> sa: (d0, d1)[s0] -> (d0, s0 floordiv 4), domain: d0 in [0, 3], d1 in [0, 5], s0 in [0, 7]
//! sa -> output: (d0, d1)[s0] -> (d0, s0), domain: d0 in [0, 3], d1 in [0, 1], s0 in [0, 5]
//!               (every result column: the block's lhs columns d1 * 4 + k are all contracted)
//! ```

use xla_indexing_core::{Expr, IndexingMap, Var};

use super::reduction::{dot_input_to_output, dot_output_to_input};
use super::{OpContext, OrAnalysisError, Outcome};
use crate::error::HloError;

/// The operands of the scaled-dot form with maps: lhs, rhs and their scales.
const OPERANDS: usize = 4;

/// Whether the scaled-dot has the form with maps; XLA's NVFP4 form adds two global scales.
fn with_global_scales(cx: &OpContext<'_>) -> Option<String> {
    (cx.instr.operands.len() == OPERANDS + 2)
        .then(|| "scaled-dot with global scales has no maps yet".to_string())
}

/// The block of operand elements each scale element covers, per dimension, for scale `j`
/// (operand `j + 2`) of operand `j`.
fn blocks(cx: &OpContext<'_>, j: usize) -> Result<Vec<i64>, HloError> {
    let (operand, scale) = (cx.operand_array(j)?, cx.operand_array(j + 2)?);
    if operand.rank() != scale.rank() {
        return Err(cx.error(format!(
            "scale {} has rank {}, its operand {j} rank {}",
            j + 2,
            scale.rank(),
            operand.rank()
        )));
    }
    operand
        .dims
        .iter()
        .zip(&scale.dims)
        .map(|(&o, &s)| match (o, s) {
            (0, 0) => Ok(1),
            (o, s) if s > 0 && o % s == 0 => Ok(o / s),
            _ => Err(cx.error(format!(
                "scale {} of dimensions {:?} does not divide operand {j} of dimensions {:?} into blocks",
                j + 2,
                scale.dims,
                operand.dims
            ))),
        })
        .collect()
}

/// Output to lhs and rhs as for `dot`, and to each scale at its operand's element divided by
/// the block.
pub fn output_to_input(cx: &OpContext<'_>) -> Result<Outcome<Vec<(usize, IndexingMap)>>, HloError> {
    if let Some(why) = with_global_scales(cx) {
        return Ok(Outcome::NotDefined(why));
    }
    let mut maps = dot_output_to_input(cx, OPERANDS)?;
    for j in 0..2 {
        let block = blocks(cx, j)?;
        let map = &maps[j].1;
        let results = map
            .results()
            .iter()
            .zip(&block)
            .map(|(e, &b)| if b > 1 { e.floor_div(b) } else { Ok(e.clone()) })
            .collect::<Result<Vec<Expr>, _>>()
            .or_err(cx)?;
        maps.push((j + 2, map.with_results(results)));
    }
    Ok(Outcome::Defined(maps))
}

/// lhs or rhs to the output as for `dot`; a scale element to the output elements that read any
/// operand element of its block (range variables walk the block).
pub fn input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
) -> Result<Outcome<IndexingMap>, HloError> {
    if let Some(why) = with_global_scales(cx) {
        return Ok(Outcome::NotDefined(why));
    }
    if operand < 2 {
        return Ok(Outcome::Defined(dot_input_to_output(
            cx, operand, OPERANDS,
        )?));
    }
    let j = operand
        .checked_sub(2)
        .filter(|&j| j < 2)
        .ok_or_else(|| cx.error(format!("scaled-dot has no operand {operand}")))?;
    let block = blocks(cx, j)?;
    let scale = cx.operand_array(operand)?;
    // Scale index to the operand elements of its block.
    let mut sizes = Vec::new();
    let mut results = Vec::new();
    for (d, &b) in block.iter().enumerate() {
        let base = Expr::dim(d as u32).checked_scale(b).or_err(cx)?;
        results.push(if b > 1 {
            sizes.push(b);
            base.checked_add(&Expr::sym(sizes.len() as u32 - 1))
                .or_err(cx)?
        } else {
            base
        });
    }
    let within = IndexingMap::new(
        results,
        Var::from_sizes(&scale.dims),
        Var::from_sizes(&sizes),
        Vec::new(),
    );
    let to_output = dot_input_to_output(cx, j, OPERANDS)?;
    let mut map = within.compose(&to_output).or_err(cx)?;
    // The block walk is used only when the dot's result keeps the walked dimension.
    map.remove_unused_symbols();
    Ok(Outcome::Defined(map))
}
