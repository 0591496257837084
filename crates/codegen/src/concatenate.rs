//! The concatenate emitter (`xla_indexing_hlo::gpu::concatenate` plans it): one loop per
//! operand of the hero. In loop `k` every thread computes operand `k` (the elemental emitter
//! runs any fused prologue) at each element of its read map, gives it to the elemental emitter
//! as the hero's value for the epilogue, and stores the output at the element of its write map
//! (the same element, shifted along the concatenated dimension). Threads whose element lies
//! beyond a shorter operand skip its loop: the loop's domain holds the constraint.

use xla_indexing_hlo::{
    HloError, Module,
    gpu::{KernelPlan, concatenate::ConcatenatePlan},
};

use super::CodegenOptions;
use super::elemental::Index;
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};

/// The `gpu.func` of a kernel the concatenate emitter writes (see the module comment).
pub fn concatenate_function(
    module: &Module,
    plan: &KernelPlan,
    concat: &ConcatenatePlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let c = plan.kernel.computation;
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], &concat.launch_map), options)?;
    let (name, ty) = &outputs[0];
    for l in &concat.loops {
        let write = Index {
            map: l.write_map.clone(),
            rts: Vec::new(),
        };
        let read = Index {
            map: l.read_map.clone(),
            rts: Vec::new(),
        };
        let index = open_loop(&mut e, &write.map, &[]).index;
        let operand = e.value(c, l.operand, &read)?;
        e.give(c, concat.hero, operand);
        let value = e.value(c, concat.output, &write)?;
        e.body.line(format!(
            "memref.store {}, {name}[{}] : {ty}",
            value.value.name,
            index.join(", ")
        ));
        close_loop(&mut e, &[], &[]);
    }
    Ok(end_kernel(text, e))
}
