//! The input-slices emitter (`xla_indexing_gpu::input_slices` plans it): one thread per element
//! of the sliced operands' shape (or per `unroll` of them). The thread computes each sliced
//! operand at its element once, and for every slice whose window holds the element stores the
//! value at the element less the slice's start, under an `scf.if` on the window's bounds.

use std::collections::HashMap;

use xla_indexing_gpu::{KernelPlan, input_slices::InputSlicesPlan};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::lane_kernel;

/// The `gpu.func` of a kernel the input-slices emitter writes (see the module comment).
pub fn input_slices_function(
    module: &Module,
    plan: &KernelPlan,
    slices: &InputSlicesPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    lane_kernel(
        module,
        plan,
        symbol,
        &slices.thread_map,
        options,
        |e, outputs| store_element(e, plan, slices, outputs),
    )
}

/// The current thread's (and lane's) element of the sliced operands, stored into every slice
/// whose window holds it.
fn store_element(
    e: &mut Emitter,
    plan: &KernelPlan,
    slices: &InputSlicesPlan,
    outputs: &[ArrayBuffer],
) -> Result<(), HloError> {
    let c = plan.kernel.computation;
    let fail = |err: String| plan.kernel.lowering_error(err);
    let at_element = Index::of(&slices.thread_map);
    let element = e
        .materialize(&at_element)
        .map_err(|err| fail(format!("element index: {err}")))?;
    let mut values = HashMap::new();
    for (k, slice) in slices.slices.iter().enumerate() {
        if slice.is_empty() {
            continue;
        }
        let value = match values.get(&slice.operand) {
            Some(v) => Clone::clone(v),
            None => {
                let v = e.value(c, slice.operand, &at_element)?;
                values.insert(slice.operand, v.clone());
                v
            }
        };
        let conditions = slice
            .checks
            .iter()
            .map(|&(d, bounds)| e.body.within(&element[d], bounds))
            .collect();
        let inside = e.body.all(conditions);
        if let Some(inside) = &inside {
            e.body.open(format!("scf.if {inside} {{"));
        }
        e.enter_scope();
        let at = e
            .materialize(&Index::of(&slice.write_map))
            .map_err(|err| fail(format!("output {k} index: {err}")))?;
        outputs[k].store(&mut e.body, &value.value.name, &at);
        e.leave_scope();
        if inside.is_some() {
            e.body.close("}", false);
        }
    }
    Ok(())
}
