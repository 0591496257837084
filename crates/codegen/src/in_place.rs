//! The in-place dynamic-update-slice emitter (`xla_indexing_gpu::in_place` plans it): one
//! thread per update element, or per vector of them read lane by lane. For each output, the
//! thread reads its update element and the offsets, clamps each offset into the starts at which
//! the update fits, and stores the element at its index plus the offsets. Each output buffer
//! must hold its operand when the kernel starts (XLA aliases them).

use xla_indexing_gpu::{KernelPlan, in_place::InPlacePlan};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::lane_kernel;

/// The `gpu.func` of a kernel the in-place emitter writes (see the module comment).
pub fn in_place_function(
    module: &Module,
    plan: &KernelPlan,
    in_place: &InPlacePlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    lane_kernel(
        module,
        plan,
        symbol,
        &in_place.thread_map,
        options,
        |e, outputs| update_element(e, plan, in_place, outputs),
    )
}

/// The current thread's (and lane's) update element of every output, stored at its index plus
/// the clamped offsets.
fn update_element(
    e: &mut Emitter,
    plan: &KernelPlan,
    in_place: &InPlacePlan,
    outputs: &[ArrayBuffer],
) -> Result<(), HloError> {
    let c = plan.kernel.computation;
    let fail = |err: String| plan.kernel.lowering_error(err);
    let at_update = Index::of(&in_place.thread_map);
    let scalar = Index::from(in_place.thread_map.with_results(Vec::new()));
    for (slice, out) in in_place.slices.iter().zip(outputs) {
        let value = e.value(c, slice.update, &at_update)?;
        let mut starts = Vec::new();
        for (&offset, var) in slice.offsets.iter().zip(slice.write_map.rt_vars()) {
            let v = e.value(c, offset, &scalar)?;
            starts.push(e.clamped_index(&v, var.bounds));
        }
        let at = e
            .materialize(&Index {
                map: slice.write_map.clone(),
                rts: starts,
            })
            .map_err(|err| fail(format!("output index: {err}")))?;
        out.store(&mut e.body, &value.value.name, &at);
    }
    Ok(())
}
