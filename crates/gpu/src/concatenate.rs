//! The concatenate emitter's plan: which fusions it writes and the thread-id maps of its loops.
//!
//! A fusion goes to the concatenate emitter when it has one output whose *hero* is a
//! `concatenate` of at most [`MAX_OPERANDS`] operands, reached from the root through elementwise
//! ops of one operand (XLA's rule: more operands would repeat the code per operand and hurt
//! occupancy, and an epilogue of other operands makes the root the hero).
//!
//! The launch covers the largest operand (the first of the longest along the concatenated
//! dimension), as the loop emitter would cover it, with an unroll factor that divides every
//! operand's size along that dimension. The plan describes one loop per operand, as XLA's
//! emitter runs them: thread `t` reads element `e` of the largest operand's thread map from
//! operand `k` where `e` lies within it, and stores the epilogue's value at `e` shifted by
//! operand `k`'s offset along the dimension (the code generator runs them as branches of one
//! loop, sharing `e`). Each operand is read once, with no compare or select per element, where
//! the loop emitter reads the output's element through a chain of conditions.

use xla_indexing_core::interval::gcd;
use xla_indexing_core::{Expr, IndexingMap, Interval};
use xla_indexing_hlo::Opcode;

use crate::device::Device;
use crate::error::PlanError;
use crate::launch::{LaunchDimensions, UnrollInputs, unroll_factor};
use crate::thread_map::{launch_elements, loop_launch};
use xla_indexing_hlo::module::{Computation, Module};
use xla_indexing_hlo::ops::{OpKind, instruction_kind};
use xla_indexing_hlo::shape::Shape;

/// The most operands of a concatenate that the emitter writes a loop for each of (XLA's limit).
pub const MAX_OPERANDS: usize = 4;

/// The concatenate emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct ConcatenatePlan {
    /// The hero: the `concatenate` instruction of the fused computation.
    pub hero: usize,
    /// The root's value, an elementwise function of the hero alone (the hero itself when there
    /// is no epilogue).
    pub output: usize,
    /// The concatenated dimension.
    pub dimension: usize,
    /// One loop per operand of the hero, in operand order.
    pub loops: Vec<OperandLoop>,
    /// Elements each thread handles per step (`unroll_id` runs over them).
    pub unroll: u64,
    /// The launch.
    pub launch: LaunchDimensions,
    /// The loop emitter's thread-id map over the largest operand: the launch attribute's map.
    pub launch_map: IndexingMap,
}

/// The loop that copies one operand of the hero into the output.
#[derive(Clone, Debug, PartialEq)]
pub struct OperandLoop {
    /// The operand (an instruction of the fused computation).
    pub operand: usize,
    /// Where the operand starts along the concatenated dimension of the output.
    pub offset: i64,
    /// `(thread ids)[chunk_id, unroll_id] -> (operand index)`: the launch map restricted to the
    /// operand's elements.
    pub read_map: IndexingMap,
    /// `(thread ids)[chunk_id, unroll_id] -> (output index)`: the read map shifted by the
    /// operand's offset.
    pub write_map: IndexingMap,
}

/// The concatenate emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs: `Ok(None)` when its hero is not a concatenate, `Err` why a concatenate hero stays
/// with the loop emitter.
pub fn plan_concatenate(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<ConcatenatePlan>, PlanError> {
    let comp = &module.computations[c];
    if outputs != 1 || !matches!(comp.instructions[comp.root].shape, Shape::Array(_)) {
        return Ok(None);
    }
    let hero = hero_of(comp, comp.root);
    let concat = &comp.instructions[hero];
    if concat.opcode != Opcode::Concatenate {
        return Ok(None);
    }
    if concat.operands.len() > MAX_OPERANDS {
        return Err(PlanError::Unsupported(format!(
            "the concatenate {} has {} operands; the concatenate emitter writes a loop per operand for at most {MAX_OPERANDS}, as XLA's",
            concat.name,
            concat.operands.len()
        )));
    }
    let dimension = match concat.ints("dimensions") {
        Some(&[d]) => usize::try_from(d)
            .map_err(|_| PlanError::Unsupported(format!("{}: dimension {d}", concat.name)))?,
        _ => {
            return Err(PlanError::Unsupported(format!(
                "{} names no single dimension",
                concat.name
            )));
        }
    };
    let shapes = concat
        .operands
        .iter()
        .map(|&o| {
            comp.instructions[o]
                .array()
                .filter(|s| dimension < s.rank())
                .ok_or_else(|| {
                    PlanError::Unsupported(format!(
                        "an operand of {} is no array of its rank",
                        concat.name
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The first operand of the largest size along the dimension.
    let largest = shapes.iter().enumerate().fold(0, |best, (k, s)| {
        if s.dims[dimension] > shapes[best].dims[dimension] {
            k
        } else {
            best
        }
    });
    let largest = shapes[largest];
    let elements = launch_elements(largest)?;
    let output_bits = comp.instructions[comp.root]
        .array()
        .and_then(|s| crate::kernel::element_bits(&s.element));
    let inputs = UnrollInputs {
        elements,
        blocks_unrolling: false,
        smallest_output_bits: output_bits,
    };
    // Unrolled groups must not straddle two operands: the factor divides every operand's size.
    let unroll = shapes
        .iter()
        .fold(unroll_factor(&inputs, device), |u, s| {
            gcd(u as i64, s.dims[dimension]).unsigned_abs()
        })
        .max(1);
    let (launch, launch_map) = loop_launch(largest, unroll, device)?;
    let mut loops = Vec::new();
    let mut offset = 0i64;
    for (&operand, shape) in concat.operands.iter().zip(&shapes) {
        let size = shape.dims[dimension];
        let mut read_map = launch_map.clone();
        if size < largest.dims[dimension] {
            read_map.add_constraint(
                launch_map.results()[dimension].clone(),
                Interval::new(0, size - 1),
            );
        }
        read_map.simplify();
        let mut results = read_map.results().to_vec();
        results[dimension] = results[dimension]
            .checked_add(&Expr::constant(offset))
            .map_err(|source| PlanError::Offset {
                operand: comp.instructions[operand].name.clone(),
                source,
            })?;
        let mut write_map = read_map.with_results(results);
        write_map.simplify();
        loops.push(OperandLoop {
            operand,
            offset,
            read_map,
            write_map,
        });
        offset = offset
            .checked_add(size)
            .ok_or_else(|| PlanError::Unsupported(format!("{} overflows", concat.name)))?;
    }
    Ok(Some(ConcatenatePlan {
        hero,
        output: comp.root,
        dimension,
        loops,
        unroll,
        launch,
        launch_map,
    }))
}

/// The hero of the value `i`: `i` itself, or the instruction reached through elementwise ops of
/// one operand (XLA's intermediate ops).
fn hero_of(comp: &Computation, mut i: usize) -> usize {
    loop {
        let instr = &comp.instructions[i];
        let unary = instr.operands.len() == 1
            && instruction_kind(instr) == Some(OpKind::Elementwise)
            && instr.opcode != Opcode::Map;
        if !unary {
            return i;
        }
        i = instr.operands[0];
    }
}
