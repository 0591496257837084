//! `tuple` and `get-tuple-element`: identities between leaves.

use xla_indexing_core::IndexingMap;

use super::{OpContext, OperandAccess, ResultAccess};
use crate::access::Access;
use crate::error::HloError;

/// The identity over the dimensions of result leaf `leaf`.
fn leaf_identity(cx: &OpContext<'_>, leaf: usize) -> Result<Access, HloError> {
    let leaves = cx.instr.shape.leaves();
    let shape = leaves
        .get(leaf)
        .ok_or_else(|| cx.error(format!("has no result leaf {leaf}")))?;
    Ok(Access::plain(IndexingMap::identity(&shape.dims)))
}

/// The first result leaf of each operand of a `tuple`, checked against the operand shapes.
fn tuple_offsets(cx: &OpContext<'_>) -> Result<Vec<usize>, HloError> {
    let mut offsets = Vec::new();
    let mut next = 0;
    for j in 0..cx.instr.operands.len() {
        let range = cx.instr.shape.element_leaves(j);
        let op = cx.operand(j)?;
        let fits = range.as_ref().is_some_and(|r| {
            let leaves = cx.instr.shape.leaves();
            r.len() == op.shape.leaf_count()
                && leaves[r.clone()]
                    .iter()
                    .zip(op.shape.leaves())
                    .all(|(a, b)| a.dims == b.dims)
        });
        if !fits {
            return Err(cx.error(format!(
                "tuple element {j} does not match operand '{}'",
                op.name
            )));
        }
        offsets.push(next);
        next += op.shape.leaf_count();
    }
    if next != cx.instr.shape.leaf_count() {
        return Err(cx.error("the tuple has more elements than operands"));
    }
    Ok(offsets)
}

/// `tuple`, output leaf `leaf` reads the matching leaf of one operand.
pub fn tuple_output_to_input(
    cx: &OpContext<'_>,
    leaf: usize,
) -> Result<Vec<OperandAccess>, HloError> {
    let offsets = tuple_offsets(cx)?;
    let operand = offsets
        .iter()
        .rposition(|&o| o <= leaf)
        .ok_or_else(|| cx.error("empty tuple"))?;
    Ok(vec![OperandAccess {
        operand,
        leaf: leaf - offsets[operand],
        access: leaf_identity(cx, leaf)?,
    }])
}

/// `tuple`, leaf `leaf` of operand `operand` to its result leaf.
pub fn tuple_input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
    leaf: usize,
) -> Result<Vec<ResultAccess>, HloError> {
    let offsets = tuple_offsets(cx)?;
    let at = offsets
        .get(operand)
        .ok_or_else(|| cx.error(format!("has no operand {operand}")))?
        + leaf;
    Ok(vec![ResultAccess {
        leaf: at,
        access: leaf_identity(cx, at)?,
    }])
}

/// The operand leaves that `get-tuple-element` selects, checked against the result.
fn gte_leaves(cx: &OpContext<'_>) -> Result<std::ops::Range<usize>, HloError> {
    cx.expect_operands(1)?;
    let op = cx.operand(0)?;
    let index = cx
        .instr
        .int("index")
        .ok_or_else(|| cx.error("missing attribute index"))?;
    let range = usize::try_from(index)
        .ok()
        .and_then(|i| op.shape.element_leaves(i))
        .ok_or_else(|| cx.error(format!("index={index} is out of range for {}", op.shape)))?;
    let leaves = op.shape.leaves();
    let ours = cx.instr.shape.leaves();
    if ours.len() != range.len()
        || ours
            .iter()
            .zip(&leaves[range.clone()])
            .any(|(a, b)| a.dims != b.dims)
    {
        return Err(cx.error(format!(
            "result {} differs from element {index} of {}",
            cx.instr.shape, op.shape
        )));
    }
    Ok(range)
}

/// `get-tuple-element`, output leaf `leaf` reads the selected operand leaf.
pub fn gte_output_to_input(
    cx: &OpContext<'_>,
    leaf: usize,
) -> Result<Vec<OperandAccess>, HloError> {
    let range = gte_leaves(cx)?;
    Ok(vec![OperandAccess {
        operand: 0,
        leaf: range.start + leaf,
        access: leaf_identity(cx, leaf)?,
    }])
}

/// `get-tuple-element`, operand leaf `leaf` to the result (nothing when not selected).
pub fn gte_input_to_output(cx: &OpContext<'_>, leaf: usize) -> Result<Vec<ResultAccess>, HloError> {
    let range = gte_leaves(cx)?;
    if !range.contains(&leaf) {
        return Ok(Vec::new());
    }
    let out = leaf - range.start;
    Ok(vec![ResultAccess {
        leaf: out,
        access: leaf_identity(cx, out)?,
    }])
}
