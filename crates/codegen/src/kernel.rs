//! One fusion as a `gpu.func`: the thread ids, the thread loop over the thread-id map, and per
//! output a store of the root's value at the element the thread writes.

use xla_indexing_hlo::{
    HloError, Module,
    gpu::{KernelPlan, launch::LaunchDimensions},
    shape::Shape,
};

use super::body::Body;
use super::elemental::{Emitter, Frame, Index};
use super::types::memref_type;

/// The six thread-id values, as `gpu.thread_id` and `gpu.block_id` name them.
const IDS: [(&str, &str); 6] = [
    ("th_x", "gpu.thread_id x"),
    ("th_y", "gpu.thread_id y"),
    ("th_z", "gpu.thread_id z"),
    ("bl_x", "gpu.block_id x"),
    ("bl_y", "gpu.block_id y"),
    ("bl_z", "gpu.block_id z"),
];

/// The `gpu.func` of one kernel, indented for a `gpu.module` body; `simplify` says whether
/// composed maps are simplified before they are written.
pub fn kernel_function(
    module: &Module,
    plan: &KernelPlan,
    symbol: &str,
    simplify: bool,
) -> Result<String, HloError> {
    let kernel = &plan.kernel;
    let comp = &module.computations[kernel.computation];
    if let Some(skipped) = plan
        .outputs
        .iter()
        .find_map(|o| o.skipped.as_ref().map(|r| (o.output, r)))
    {
        return Err(kernel.error(format!(
            "cannot be lowered: output {} {}",
            skipped.0, skipped.1
        )));
    }
    let mut buffers = Vec::new();
    let mut args = Vec::new();
    for n in 0..comp.num_parameters() {
        let i = comp
            .parameter(n)
            .ok_or_else(|| kernel.error(format!("cannot be lowered: parameter {n} is missing")))?;
        let Shape::Array(shape) = &comp.instructions[i].shape else {
            return Err(kernel.error(format!("cannot be lowered: parameter {n} is a tuple")));
        };
        let ty = memref_type(shape).map_err(|e| kernel.error(format!("cannot be lowered: {e}")))?;
        let name = format!("%arg{n}");
        args.push(format!("{name}: {ty}"));
        buffers.push((name, ty));
    }
    let mut outputs = Vec::new();
    for (k, shape) in kernel.outputs.iter().enumerate() {
        let ty = memref_type(shape).map_err(|e| kernel.error(format!("cannot be lowered: {e}")))?;
        let name = format!("%out{k}");
        args.push(format!("{name}: {ty}"));
        outputs.push((name, ty));
    }
    let root = comp.root;
    let roots: Vec<usize> = match kernel.outputs.len() {
        1 => vec![root],
        n if comp.instructions[root].opcode == "tuple"
            && comp.instructions[root].operands.len() == n =>
        {
            comp.instructions[root].operands.clone()
        }
        n => {
            return Err(kernel.error(format!(
                "cannot be lowered: {n} outputs but the root is not a tuple of {n} values"
            )));
        }
    };

    let map = &plan.thread_map;
    let mut text = format!(
        "    gpu.func @{symbol}({}) kernel attributes {{xla_indexing.launch = {}}} {{\n",
        args.join(", "),
        launch_attribute(&plan.launch, map)
    );
    let mut body = Body::at_depth(3);
    let ids: Vec<String> = IDS
        .iter()
        .map(|(name, op)| {
            body.line(format!("%{name} = {op}"));
            format!("%{name}")
        })
        .collect();
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
        "xla_indexing.loop ({}){syms_text} -> ({}) in #xla_indexing.map<\"{map}\"> {{",
        ids.join(", "),
        out_index.join(", ")
    ));
    let frame = Frame { dims: ids, syms };
    let mut emitter = Emitter::new(module, body, frame, buffers, simplify);
    let index = Index {
        map: map.clone(),
        rts: Vec::new(),
    };
    for (r, (name, ty)) in roots.iter().zip(&outputs) {
        let value = emitter.value(kernel.computation, *r, &index)?;
        emitter.body.line(format!(
            "memref.store {}, {name}[{}] : {ty}",
            value.value.name,
            out_index.join(", ")
        ));
    }
    emitter.body.line("xla_indexing.yield");
    emitter.body.close("}", false);
    emitter.body.line("gpu.return");
    text.push_str(&emitter.body.into_text());
    text.push_str("    }\n");
    Ok(text)
}

/// `#xla_indexing.launch<block = [...], grid = [...], map = "...">`.
pub fn launch_attribute(launch: &LaunchDimensions, map: &xla_indexing_core::IndexingMap) -> String {
    let list = |v: &[u64; 3]| format!("[{}, {}, {}]", v[0], v[1], v[2]);
    format!(
        "#xla_indexing.launch<block = {}, grid = {}, map = \"{map}\">",
        list(&launch.threads),
        list(&launch.blocks)
    )
}
