//! XLA's input-slices emitter: a fusion of several outputs, each a slice with unit strides of
//! an operand of one shape, runs one thread per element of that shape. Each thread computes the
//! sliced operands at its element once and stores them into every slice whose window holds the
//! element, at the element less the slice's start.
//!
//! XLA takes such a fusion after the reduction and transpose emitters, and for packed (4-bit)
//! types before them; a thread handles `ceil(8 / bits)` elements of the narrowest output, so
//! that packed elements sharing a byte are stored by one thread.

use xla_indexing_core::{Expr, IndexingMap, Interval};
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::attrs::{AttrValue, SliceDim};
use xla_indexing_hlo::module::Module;

use crate::device::Device;
use crate::epilogue::root_values;
use crate::error::PlanError;
use crate::kernel::element_bits;
use crate::launch::LaunchDimensions;
use crate::thread_map::loop_launch;

/// The input-slices emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSlicesPlan {
    /// Per output, its slice.
    pub slices: Vec<InputSlice>,
    /// One thread per element of the sliced operands' shape (or `unroll` of them).
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (index of the sliced operands)`.
    pub thread_map: IndexingMap,
}

/// One output's slice.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSlice {
    /// The `slice` instruction.
    pub root: usize,
    /// Its operand (an instruction of the fusion), read at the thread map.
    pub operand: usize,
    /// Per dimension of the operand, the window `[start, limit)` the slice keeps.
    pub window: Vec<(i64, i64)>,
    /// The dimensions the window cuts, each with the bounds `[start, limit - 1]` an element's
    /// index must lie in to be stored (the write map's constraints the kernel checks).
    pub checks: Vec<(usize, (i64, i64))>,
    /// `(thread ids)[chunk_id, unroll_id] -> (output index)`: the thread map less the starts,
    /// constrained to the window (empty when the slice is).
    pub write_map: IndexingMap,
}

impl InputSlice {
    /// Whether the slice keeps no element (its output is empty and never stored).
    pub fn is_empty(&self) -> bool {
        self.window.iter().any(|&(start, limit)| start >= limit)
    }
}

/// The input-slices emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs: `Ok(None)` unless there are several outputs, each a `slice` with unit strides of
/// an operand of one shape (XLA's `IsInputFusibleNonStridedSlices` and
/// `AllSliceInputsAreCompatible`); `Err` why such a fusion cannot be launched.
pub fn plan_input_slices(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<InputSlicesPlan>, PlanError> {
    let comp = &module.computations[c];
    let Ok(roots) = root_values(comp, outputs) else {
        return Ok(None);
    };
    if roots.len() < 2 {
        return Ok(None);
    }
    let mut windows = Vec::new();
    for &r in &roots {
        let instr = &comp.instructions[r];
        let Some(AttrValue::Slice(spec)) = instr
            .attr("slice")
            .filter(|_| instr.opcode == Opcode::Slice)
        else {
            return Ok(None);
        };
        if spec.iter().any(|s| s.stride != 1) {
            return Ok(None);
        }
        windows.push(
            spec.iter()
                .map(|&SliceDim { start, limit, .. }| (start, limit))
                .collect::<Vec<_>>(),
        );
    }
    let operand_shape = |r: usize| comp.instructions[comp.instructions[r].operands[0]].array();
    let Some(input) = operand_shape(roots[0]) else {
        return Ok(None);
    };
    if roots
        .iter()
        .any(|&r| operand_shape(r).is_none_or(|s| s.dims != input.dims))
    {
        return Ok(None);
    }
    // A thread stores whole bytes of the narrowest output.
    let narrowest = roots
        .iter()
        .filter_map(|&r| comp.instructions[r].array())
        .filter_map(|a| element_bits(&a.element))
        .min()
        .unwrap_or(8);
    let unroll = 8u64.div_ceil(narrowest.max(1));
    let (launch, thread_map) = loop_launch(input, unroll, device)?;
    let slices = roots
        .iter()
        .zip(windows)
        .map(|(&root, window)| {
            let write_map = write_map(&thread_map, &window)?;
            let checks = window
                .iter()
                .zip(&input.dims)
                .enumerate()
                .filter(|&(_, (&(start, limit), &dim))| (start, limit) != (0, dim))
                .map(|(d, (&(start, limit), _))| (d, (start, limit - 1)))
                .collect();
            Ok(InputSlice {
                root,
                operand: comp.instructions[root].operands[0],
                window,
                checks,
                write_map,
            })
        })
        .collect::<Result<Vec<_>, PlanError>>()?;
    Ok(Some(InputSlicesPlan {
        slices,
        launch,
        thread_map,
    }))
}

/// The slice's output index of each element the thread map gives: the element less the
/// window's starts, where the element lies in the window.
fn write_map(thread_map: &IndexingMap, window: &[(i64, i64)]) -> Result<IndexingMap, PlanError> {
    let mut map = thread_map.clone();
    for (r, &(start, limit)) in thread_map.results().iter().zip(window) {
        map.add_constraint(r.clone(), Interval::new(start, limit - 1));
    }
    let results = thread_map
        .results()
        .iter()
        .zip(window)
        .map(|(r, &(start, _))| r.checked_sub(&Expr::constant(start)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PlanError::WriteMap(e.into()))?;
    let mut map = map.with_results(results);
    map.simplify();
    Ok(map)
}
