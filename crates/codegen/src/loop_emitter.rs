//! The loop emitter: each thread computes the elements the thread-id map gives it on its own.
//! The kernel is the thread ids, the thread loop over the thread-id map, and per output a store
//! of the root's value at the element the thread writes. When the plan vectorizes some access,
//! the loop runs over a thread's groups and its body computes the lanes one by one, sharing
//! vector loads and stores (`vector.rs`).

use xla_indexing_hlo::{HloError, Module};

use xla_indexing_gpu::{KernelPlan, root_leaves, thread_map::UNROLL_SYMBOL};

use super::CodegenOptions;
use super::body::Body;
use super::elemental::{Emitter, Frame, Index};
use super::emitter_base::{
    Signature, end_kernel, first_lanes, function_header, signature, thread_ids,
};
use super::lanes::Lanes;

/// The `gpu.func` of a kernel the loop emitter writes, indented for a `gpu.module` body;
/// `options` say whether composed maps are simplified before they are written and whether the
/// plan's vector accesses are used.
pub(crate) fn loop_function(
    module: &Module,
    plan: &KernelPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let kernel = &plan.kernel;
    let comp = &module.computations[kernel.computation];
    if let Some(skipped) = plan
        .outputs
        .iter()
        .find_map(|o| o.skipped.as_ref().map(|r| (o.output, r)))
    {
        return Err(kernel.error(format!(
            "cannot be lowered: output {}: {}",
            skipped.0, skipped.1
        )));
    }
    let Signature {
        params: buffers,
        outputs,
    } = signature(module, plan)?;
    // Each output's value: a root leaf, through nested tuples, maybe a variadic reduce's result.
    let roots = root_leaves(comp, kernel.outputs.len()).map_err(|e| kernel.lowering_error(e))?;

    let map = &plan.thread_map;
    let lanes = options.vectorize && plan.vectorized() && map.range_vars().len() > UNROLL_SYMBOL;
    let loop_map = if lanes { first_lanes(map) } else { map.clone() };
    let text = function_header(symbol, &buffers, &outputs, &[], &plan.launch, map);
    let mut body = Body::at_depth(3);
    let ids = thread_ids(&mut body);
    let syms: Vec<String> = (0..map.range_vars().len())
        .map(|k| {
            map.range_vars()[k]
                .name
                .clone()
                .map_or_else(|| format!("%s{k}"), |n| format!("%{n}"))
        })
        .collect();
    let out_index: Vec<String> = (0..map.results().len()).map(|k| format!("%o{k}")).collect();
    let syms_text = if syms.is_empty() {
        String::new()
    } else {
        format!("[{}]", syms.join(", "))
    };
    body.open(format!(
        "xla_indexing.loop ({}){syms_text} -> ({}) in #xla_indexing.map<\"{loop_map}\"> {{",
        ids.join(", "),
        out_index.join(", ")
    ));
    let frame = Frame { dims: ids, syms };
    let mut emitter = Emitter::new(module, (body, frame), buffers, options.simplify, symbol);
    // Each output at its write map: the thread map, or for a root of other dimensions the
    // thread map through the bitcast from output 0 to it.
    let indices: Vec<Index> = plan
        .outputs
        .iter()
        .map(|o| Index::of(&o.write_maps[0]))
        .collect();
    if lanes {
        let names = (0..plan.unroll)
            .map(|k| emitter.body.index(k as i64).name)
            .collect();
        let regions = emitter.body.regions();
        emitter.lanes = Some(Lanes::new(
            map.clone(),
            plan.unroll,
            names,
            (regions, emitter.scope_depth()),
        ));
        let mut values = vec![Vec::new(); roots.len()];
        for k in 0..plan.unroll as usize {
            emitter.set_lane(k);
            for ((&(r, leaf), v), index) in roots.iter().zip(&mut values).zip(&indices) {
                v.push(emitter.leaf(kernel.computation, r, leaf, index)?);
            }
        }
        for (((v, buffer), out), index) in
            values.iter().zip(&outputs).zip(&plan.outputs).zip(&indices)
        {
            emitter
                .store_lanes(buffer, &index.map, v, &out.store)
                .map_err(|e| {
                    kernel.error(format!("cannot be lowered: output {}: {e}", out.output))
                })?;
        }
    } else {
        for ((&(r, leaf), buffer), index) in roots.iter().zip(&outputs).zip(&indices) {
            let value = emitter.leaf(kernel.computation, r, leaf, index)?;
            let at = if index.map == *map {
                out_index.clone()
            } else {
                emitter
                    .materialize(index)
                    .map_err(|e| kernel.error(format!("cannot be lowered: output index: {e}")))?
            };
            buffer.store(&mut emitter.body, &value.value.name, &at);
        }
    }
    emitter.body.line("xla_indexing.yield");
    emitter.body.close("}", false);
    Ok(end_kernel(text, emitter))
}
