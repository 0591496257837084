//! XLA's in-place dynamic-update-slice emitter: a fusion whose every output is a
//! `dynamic-update-slice` of a fusion parameter writes only the updates, into the buffer that
//! already holds the operand (XLA gives the output the operand's buffer; ours is filled with the
//! operand first, as the scatter emitter's).
//!
//! One thread per update element, or per vector of them (the loop emitter's unroll factor for
//! the update's elements): it reads the update element and the offsets, clamps each offset into
//! the starts at which the update fits (XLA's semantics), and stores the element at its index
//! plus the offsets.

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_hlo::Opcode;

use crate::device::Device;
use crate::epilogue::root_values;
use crate::error::PlanError;
use crate::launch::{LaunchDimensions, UnrollInputs, unroll_factor};
use crate::thread_map::{launch_elements, loop_launch};
use xla_indexing_hlo::module::Module;

/// The in-place emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct InPlacePlan {
    /// Per output, its `dynamic-update-slice`.
    pub slices: Vec<UpdateSlice>,
    /// One thread per update element (or vector of them).
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (update index)`.
    pub thread_map: IndexingMap,
}

/// One output's `dynamic-update-slice`.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateSlice {
    /// The `dynamic-update-slice` instruction.
    pub hero: usize,
    /// The fusion parameter that is its operand: the output's buffer must hold it first.
    pub operand_parameter: usize,
    /// Its update operand (an instruction of the fusion).
    pub update: usize,
    /// Its scalar offsets, one per dimension (instructions of the fusion).
    pub offsets: Vec<usize>,
    /// `(thread ids)[chunk_id, unroll_id]{rt_0, ...} -> (output index)`: the update index plus
    /// runtime variable `rt_k`, offset `k` clamped into `[0, output_k - update_k]`.
    pub write_map: IndexingMap,
}

/// The in-place emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs: `Ok(None)` when an output is no `dynamic-update-slice`, `Err` why one whose outputs
/// all are cannot be written in place.
pub fn plan_in_place(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<InPlacePlan>, PlanError> {
    let comp = &module.computations[c];
    let Ok(roots) = root_values(comp, outputs) else {
        return Ok(None);
    };
    if roots.is_empty()
        || roots
            .iter()
            .any(|&r| comp.instructions[r].opcode != Opcode::DynamicUpdateSlice)
    {
        return Ok(None);
    }
    let mut slices = Vec::new();
    let mut update_dims: Option<Vec<i64>> = None;
    let mut thread_map: Option<(LaunchDimensions, IndexingMap)> = None;
    for &hero in &roots {
        let instr = &comp.instructions[hero];
        let operand = &comp.instructions[instr.operands[0]];
        let operand_parameter = operand
            .parameter_number
            .filter(|_| operand.opcode == Opcode::Parameter)
            .ok_or_else(|| {
                PlanError::Unsupported(format!(
                    "the operand of {} is computed in the fusion ({}); XLA updates in place only a parameter's buffer",
                    instr.name, operand.name
                ))
            })?;
        let out = instr
            .array()
            .ok_or_else(|| PlanError::Tuple(instr.name.clone()))?;
        let update = instr.operands[1];
        let upd = comp.instructions[update].array().ok_or_else(|| {
            PlanError::Unsupported(format!("the update of {} is a tuple", instr.name))
        })?;
        let offsets = instr.operands[2..].to_vec();
        let scalar = |&o: &usize| {
            comp.instructions[o]
                .array()
                .is_some_and(|a| a.dims.is_empty())
        };
        if offsets.len() != out.dims.len() || !offsets.iter().all(scalar) {
            return Err(PlanError::Unsupported(format!(
                "{} takes its offsets as a vector, which the in-place emitter does not read",
                instr.name
            )));
        }
        match &update_dims {
            Some(dims) if *dims != upd.dims => {
                return Err(PlanError::Unsupported(format!(
                    "the updates of {} ({upd}) and of the first output differ in shape",
                    instr.name
                )));
            }
            _ => update_dims = Some(upd.dims.clone()),
        }
        if thread_map.is_none() {
            let elements = launch_elements(upd)?;
            let inputs = UnrollInputs {
                elements,
                blocks_unrolling: false,
                smallest_output_bits: None,
            };
            let unroll = unroll_factor(&inputs, device);
            thread_map = Some(loop_launch(upd, unroll, device)?);
        }
        let Some((_, map)) = &thread_map else {
            return Err(PlanError::Unsupported("no thread map".into()));
        };
        let write_map =
            landing(map, &out.dims, &upd.dims).map_err(|e| PlanError::WriteMap(e.into()))?;
        slices.push(UpdateSlice {
            hero,
            operand_parameter,
            update,
            offsets,
            write_map,
        });
    }
    let Some((launch, thread_map)) = thread_map else {
        return Ok(None);
    };
    Ok(Some(InPlacePlan {
        slices,
        launch,
        thread_map,
    }))
}

/// The output index of each update element the thread map gives: the update index plus runtime
/// variable `rt_k` in `[0, out_k - upd_k]` (the clamped offset).
fn landing(
    thread_map: &IndexingMap,
    out: &[i64],
    upd: &[i64],
) -> Result<IndexingMap, xla_indexing_core::ArithError> {
    // Runtime variables are the symbols after the range variables.
    let first_rt = thread_map.range_vars().len() as u32;
    let results = thread_map
        .results()
        .iter()
        .enumerate()
        .map(|(k, r)| r.checked_add(&Expr::sym(first_rt + k as u32)))
        .collect::<Result<Vec<_>, _>>()?;
    let rt_vars = out
        .iter()
        .zip(upd)
        .map(|(&o, &u)| Var::new(Interval::new(0, o - u)))
        .collect();
    let mut map = IndexingMap::new(
        results,
        thread_map.dims().to_vec(),
        thread_map.range_vars().to_vec(),
        rt_vars,
    );
    for (e, iv) in thread_map.constraints() {
        map.add_constraint(e.clone(), *iv);
    }
    map.simplify();
    Ok(map)
}
