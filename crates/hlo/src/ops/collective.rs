//! `all-gather`: each participant of a replica group contributes its operand, and every
//! participant's result is the participants' operands concatenated along the gathered
//! dimension, in group order. Result element `d` along that dimension is operand element
//! `d mod n` (`n` the operand's size there) of participant `d floordiv n`: the map reads the
//! operand, and its [`Participant`] says whose (XLA's replica-id map).
//!
//! ```text
//! ag = f32[8,3] all-gather(f32[2,3] x), replica_groups={{0,1,2,3}}, dimensions={0}
//! output -> x: (d0, d1) -> (d0 mod 2, d1); participant (d0, d1) -> (d0 floordiv 2)
//! x -> output: (d0, d1)[s0] -> (d0 + s0 * 2, d1); participant (d0, d1)[s0] -> (s0)
//! ```
//!
//! The group size is the ratio of the result's and the operand's sizes along the dimension.
//! A variadic all-gather gathers each operand into its own result leaf.

use xla_indexing_core::{Expr, IndexingMap, Var};

use super::{OpContext, OperandAccess, OrAnalysisError, ResultAccess};
use crate::access::{Access, Participant};
use crate::error::HloError;

/// An all-gather's gathered dimension, operand size along it and group size, checked against
/// every operand and result leaf.
struct Gather {
    dim: usize,
    size: i64,
    group: i64,
}

fn all_gather(cx: &OpContext<'_>) -> Result<Gather, HloError> {
    let count = cx.instr.operands.len();
    if count == 0 {
        return Err(cx.error("all-gather needs an operand"));
    }
    let leaves = cx.instr.shape.leaves();
    if leaves.len() != count {
        return Err(cx.error(format!(
            "{count} operands but {} result arrays",
            leaves.len()
        )));
    }
    let first = cx.operand_array(0)?;
    let dims = cx.dim_list(
        "dimensions",
        cx.instr.ints("dimensions").unwrap_or(&[]),
        first.rank(),
    )?;
    let [dim] = dims[..] else {
        return Err(cx.error("all-gather needs one gathered dimension in dimensions={...}"));
    };
    let size = first.dims[dim];
    let gathered = leaves[0].dims.get(dim).copied().unwrap_or(0);
    let group = if size > 0 && gathered % size == 0 {
        gathered / size
    } else if size == 0 && gathered == 0 {
        1
    } else {
        return Err(cx.error(format!(
            "result size {gathered} along dimension {dim} is not a multiple of the operand's {size}"
        )));
    };
    for (j, leaf) in leaves.iter().enumerate() {
        let operand = cx.operand_array(j)?;
        let expected: Vec<i64> = operand
            .dims
            .iter()
            .enumerate()
            .map(|(d, &n)| if d == dim { n * group } else { n })
            .collect();
        if operand.dims.get(dim) != Some(&size) || leaf.dims != expected {
            return Err(cx.error(format!(
                "operand {j} of dimensions {:?} does not gather {group} times along dimension {dim} into {:?}",
                operand.dims, leaf.dims
            )));
        }
    }
    Ok(Gather { dim, size, group })
}

/// `all-gather`, result leaf `leaf` to operand `leaf`: along the gathered dimension, the
/// element within the participant's part, read from that participant.
pub fn output_to_input(cx: &OpContext<'_>, leaf: usize) -> Result<Vec<OperandAccess>, HloError> {
    let g = all_gather(cx)?;
    let out = &cx.instr.shape.leaves()[leaf].dims;
    let d = Expr::dim(g.dim as u32);
    let (within, participant) = if g.group > 1 {
        (
            d.modulo(g.size).or_err(cx)?,
            d.floor_div(g.size).or_err(cx)?,
        )
    } else {
        (d, Expr::zero())
    };
    let mut results: Vec<Expr> = (0..out.len() as u32).map(Expr::dim).collect();
    results[g.dim] = within;
    let participant = Participant {
        instruction: cx.instr.name.clone(),
        map: IndexingMap::from_tensor_sizes(vec![participant], out, &[]),
    };
    Ok(vec![OperandAccess {
        operand: leaf,
        leaf: 0,
        access: Access::on_participant(
            IndexingMap::from_tensor_sizes(results, out, &[]),
            participant,
        ),
    }])
}

/// `all-gather`, operand `operand` to result leaf `operand`: the element lands in the part of
/// the participant that holds it (a range variable over the group, the participant's map).
pub fn input_to_output(cx: &OpContext<'_>, operand: usize) -> Result<Vec<ResultAccess>, HloError> {
    let g = all_gather(cx)?;
    let dims = &cx.operand_array(operand)?.dims;
    let part = Expr::sym(0);
    let mut results: Vec<Expr> = (0..dims.len() as u32).map(Expr::dim).collect();
    results[g.dim] = part
        .checked_scale(g.size)
        .and_then(|p| p.checked_add(&Expr::dim(g.dim as u32)))
        .or_err(cx)?;
    let participant = Participant {
        instruction: cx.instr.name.clone(),
        map: IndexingMap::new(
            vec![part],
            Var::from_sizes(dims),
            Var::from_sizes(&[g.group]),
            Vec::new(),
        ),
    };
    let map = IndexingMap::new(
        results,
        Var::from_sizes(dims),
        Var::from_sizes(&[g.group]),
        Vec::new(),
    );
    Ok(vec![ResultAccess {
        leaf: operand,
        access: Access::on_participant(map, participant),
    }])
}
