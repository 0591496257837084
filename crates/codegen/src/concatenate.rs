//! The concatenate emitter (`xla_indexing_gpu::concatenate` plans it): one loop over the
//! largest operand's thread map, and in it one branch per operand of the hero. Each thread's
//! element `e` of the launch map is computed once; in branch `k`, taken where `e` lies within
//! operand `k` (a compare along the concatenated dimension, none for an operand as long as the
//! largest), the thread computes operand `k` at `e` (the elemental emitter runs any fused
//! prologue, over `e` rather than the thread ids), gives it to the elemental emitter as the
//! hero's value for the epilogue, and stores the output at `e` shifted by the operand's offset.
//! The branches are the plan's loops (`read_map` and `write_map` describe them over the thread
//! ids); sharing `e` leaves one division per dimension however many operands there are.

use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_gpu::{KernelPlan, concatenate::ConcatenatePlan};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::elemental::{Frame, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};

/// The `gpu.func` of a kernel the concatenate emitter writes (see the module comment).
pub fn concatenate_function(
    module: &Module,
    plan: &KernelPlan,
    concat: &ConcatenatePlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let kernel = &plan.kernel;
    let c = kernel.computation;
    let comp = &module.computations[c];
    let fail = |e: String| kernel.lowering_error(e);
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], &concat.launch_map), options)?;
    let output = &outputs[0];
    let element = open_loop(&mut e, &concat.launch_map, &[]).index;
    let largest = concat.launch_map.results().len();
    let longest = concat
        .loops
        .iter()
        .filter_map(|l| comp.instructions[l.operand].array())
        .map(|s| s.dims[concat.dimension])
        .max()
        .unwrap_or(0);
    for l in &concat.loops {
        let instr = &comp.instructions[l.operand];
        let dims = instr
            .array()
            .map(|s| s.dims.clone())
            .filter(|d| d.len() == largest)
            .ok_or_else(|| fail(format!("operand {} is no array of its rank", instr.name)))?;
        let size = dims[concat.dimension];
        let branch = size < longest;
        if branch {
            let bound = e.body.index(size).name;
            let inside = e.body.op(
                "inside",
                "i1",
                format!(
                    "arith.cmpi ult, {}, {bound} : index",
                    element[concat.dimension]
                ),
            );
            e.body.open(format!("scf.if {} {{", inside.name));
        }
        e.enter_scope();
        // The operand's and the output's elements as maps of `e`, whose domain is the operand.
        let threads = std::mem::replace(
            &mut e.frame,
            Frame {
                dims: element.clone(),
                syms: Vec::new(),
            },
        );
        let read = Index::from(IndexingMap::identity(&dims));
        let mut shifted = read.map.results().to_vec();
        shifted[concat.dimension] = shifted[concat.dimension]
            .checked_add(&Expr::constant(l.offset))
            .map_err(|err| kernel.lowering_error(err))?;
        let write = Index::from(read.map.with_results(shifted));
        let operand = e.value(c, l.operand, &read)?;
        e.give(c, concat.hero, operand);
        let value = e.value(c, concat.output, &write)?;
        let index = e
            .materialize(&write)
            .map_err(|err| fail(format!("output index: {err}")))?;
        output.store(&mut e.body, &value.value.name, &index);
        e.frame = threads;
        e.leave_scope();
        if branch {
            e.body.close("}", false);
        }
    }
    close_loop(&mut e, &[], &[]);
    Ok(end_kernel(text, e))
}
