//! Text and JSON of the launch, coalescing and tile reports.

use serde_json::{Value, json};

use crate::coalescing::{AccessCoalescing, analyze_access};
use crate::kernel::Kernel;
use crate::launch::Device;
use crate::plan::{EmitterPlan, KernelPlan, OperandPlan};
use crate::reduction::SharedBuffer;
use crate::tiles::{OperandTile, TileError, output_tile, propagate};
use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::fusion::Composer;
use xla_indexing_hlo::module::Module;

fn operand_label(op: &OperandPlan) -> String {
    match op.leaf {
        Some(l) => format!("{}.{l}", op.parameter),
        None => op.parameter.to_string(),
    }
}

fn runtime_json(a: &Access) -> Vec<Value> {
    a.runtime
        .iter()
        .enumerate()
        .map(|(k, rt)| json!({"var": format!("rt{k}"), "instruction": rt.instruction, "map": rt.map.to_string()}))
        .collect()
}

fn kernel_json(k: &Kernel, computation: &str) -> Value {
    json!({"fusion": k.name, "computation": computation, "kind": k.kind, "line": k.line})
}

/// `launch`: per kernel the grid, the unroll factor, the thread-id map and the thread-id to
/// operand maps.
pub fn launch_json(plans: &[KernelPlan]) -> Value {
    let kernels: Vec<Value> = plans
        .iter()
        .map(|p| {
            let mut v = kernel_json(&p.kernel, &p.computation);
            v["block"] = json!(p.launch.threads);
            v["grid"] = json!(p.launch.blocks);
            v["unroll"] = json!(p.unroll);
            v["emitter"] = json!(p.emitter.name());
            if let EmitterPlan::Loop {
                fallback: Some(why),
            } = &p.emitter
            {
                v["fallback"] = json!(why);
            }
            v["thread_map"] = json!(p.thread_map.to_string());
            let shared_json = |shared: &[SharedBuffer]| -> Value {
                shared
                    .iter()
                    .map(|b| json!({"dims": b.dims, "element": b.element, "bytes": b.bytes()}))
                    .collect()
            };
            match &p.emitter {
                EmitterPlan::Reduction(r) => {
                    v["write_map"] = json!(r.write_map.to_string());
                    v["shared"] = shared_json(&r.shared);
                }
                EmitterPlan::Transpose(t) => {
                    v["write_map"] = json!(t.write_map.to_string());
                    v["shared"] = shared_json(std::slice::from_ref(&t.tile));
                }
                EmitterPlan::Concatenate(c) => {
                    v["write_maps"] = c.loops.iter().map(|l| json!(l.write_map.to_string())).collect();
                }
                EmitterPlan::Scatter(s) => {
                    v["write_map"] = json!(s.write.map.to_string());
                    v["combiner"] = json!(s.combiner.name());
                    v["operand_parameter"] = json!(s.operand_parameter);
                }
                EmitterPlan::Loop { .. } => {}
            }
            v["outputs"] = p
                .outputs
                .iter()
                .map(|o| {
                    let mut ov = json!({"output": o.output, "shape": o.shape.to_string()});
                    if let Some(s) = &o.skipped {
                        ov["skipped"] = json!(s);
                    } else {
                        ov["store"] = json!(o.store.to_string());
                    }
                    ov["operands"] = o
                        .operands
                        .iter()
                        .map(|op| {
                            let mut x = json!({
                                "operand": op.parameter,
                                "shape": op.shape.to_string(),
                                "maps": op.thread_maps.iter().map(|a| a.map.to_string()).collect::<Vec<_>>(),
                                "vectors": op.vectors.iter().map(ToString::to_string).collect::<Vec<_>>(),
                            });
                            if let Some(l) = op.leaf {
                                x["leaf"] = json!(l);
                            }
                            let rt: Vec<Value> = op.thread_maps.iter().flat_map(runtime_json).collect();
                            if !rt.is_empty() {
                                x["runtime_vars"] = Value::Array(rt);
                            }
                            if let Some(u) = &op.undefined {
                                x["undefined"] = json!(u);
                            }
                            x
                        })
                        .collect();
                    ov
                })
                .collect();
            v
        })
        .collect();
    json!({ "kernels": kernels })
}

/// `none`, or each shared buffer as `f32[32,33]` and the bytes of them all.
fn shared_text(shared: &[SharedBuffer]) -> String {
    if shared.is_empty() {
        return "none".into();
    }
    let buffers: Vec<String> = shared
        .iter()
        .map(|b| {
            let dims: Vec<String> = b.dims.iter().map(u64::to_string).collect();
            format!("{}[{}]", b.element, dims.join(","))
        })
        .collect();
    let bytes: u64 = shared.iter().map(SharedBuffer::bytes).sum();
    format!("{} ({bytes} bytes)", buffers.join(", "))
}

/// The text form of [`launch_json`].
pub fn launch_text(plans: &[KernelPlan]) -> String {
    let mut out = String::new();
    for p in plans {
        out.push_str(&format!(
            "{} (calls {}): block [{}, {}, {}], grid [{}, {}, {}], unroll {}\n  thread map: {}\n",
            p.kernel.name,
            p.computation,
            p.launch.threads[0],
            p.launch.threads[1],
            p.launch.threads[2],
            p.launch.blocks[0],
            p.launch.blocks[1],
            p.launch.blocks[2],
            p.unroll,
            p.thread_map
        ));
        match &p.emitter {
            EmitterPlan::Loop { fallback: None } => out.push_str("  emitter: loop\n"),
            EmitterPlan::Loop {
                fallback: Some(why),
            } => out.push_str(&format!("  emitter: loop ({why})\n")),
            EmitterPlan::Reduction(r) => out.push_str(&format!(
                "  emitter: {}\n  write map: {}\n  shared memory: {}\n",
                p.emitter.name(),
                r.write_map,
                shared_text(&r.shared)
            )),
            EmitterPlan::Transpose(t) => out.push_str(&format!(
                "  emitter: transpose\n  write map: {}\n  shared memory: {}\n",
                t.write_map,
                shared_text(std::slice::from_ref(&t.tile))
            )),
            EmitterPlan::Scatter(s) => {
                out.push_str(&format!(
                    "  emitter: scatter ({}; the output starts as parameter {})\n  write map: {}\n",
                    s.combiner.name(),
                    s.operand_parameter,
                    s.write.map
                ));
                for (k, rt) in s.write.runtime.iter().enumerate() {
                    out.push_str(&format!("    rt{k}: {} at {}\n", rt.instruction, rt.map));
                }
            }
            EmitterPlan::Concatenate(c) => {
                out.push_str("  emitter: concatenate\n");
                for (k, l) in c.loops.iter().enumerate() {
                    out.push_str(&format!(
                        "  loop over operand {k} (offset {}) write map: {}\n",
                        l.offset, l.write_map
                    ));
                }
            }
        }
        for o in &p.outputs {
            if let Some(s) = &o.skipped {
                out.push_str(&format!(
                    "  output {} {}: skipped: {s}\n",
                    o.output, o.shape
                ));
                continue;
            }
            out.push_str(&format!(
                "  output {} {} stores: {}\n",
                o.output, o.shape, o.store
            ));
            for op in &o.operands {
                out.push_str(&format!(
                    "  output {} {} <- operand {} {}\n",
                    o.output,
                    o.shape,
                    operand_label(op),
                    op.shape
                ));
                if op.thread_maps.is_empty() && op.undefined.is_none() {
                    out.push_str("    (not read)\n");
                }
                for (a, v) in op.thread_maps.iter().zip(&op.vectors) {
                    out.push_str(&format!("    {}\n      reads: {v}\n", a.map));
                    for (k, rt) in a.runtime.iter().enumerate() {
                        out.push_str(&format!("      rt{k}: {} at {}\n", rt.instruction, rt.map));
                    }
                }
                if let Some(u) = &op.undefined {
                    out.push_str(&format!("    undefined: {u}\n"));
                }
            }
        }
        out.push('\n');
    }
    out
}

/// One analysed access (or why it could not be analysed).
pub struct CoalescingEntry<'a> {
    /// The plan of the kernel the access belongs to.
    pub plan: &'a KernelPlan,
    /// The index of the output being written.
    pub output: usize,
    /// The operand read; `None` for the store of the output itself.
    pub operand: Option<&'a OperandPlan>,
    /// Which of the operand's `output_maps` is analysed (their count for the entry that reports
    /// undefined maps).
    pub map_index: usize,
    /// The coalescing, or why it could not be analysed.
    pub result: Result<AccessCoalescing, String>,
}

/// Analyses every access of every kernel: each operand's reads, then the output's store
/// (through the output's write map).
pub fn coalescing_entries<'a>(
    plans: &'a [KernelPlan],
    device: &Device,
) -> Vec<CoalescingEntry<'a>> {
    let mut out = Vec::new();
    for plan in plans {
        for o in plan.outputs.iter().filter(|o| o.skipped.is_none()) {
            for op in &o.operands {
                for (i, a) in op.output_maps.iter().enumerate() {
                    out.push(CoalescingEntry {
                        plan,
                        output: o.output,
                        operand: Some(op),
                        map_index: i,
                        result: analyze_access(&op.read_map, &a.map, &op.shape, device)
                            .map_err(|e| e.to_string()),
                    });
                }
                if let Some(u) = &op.undefined {
                    out.push(CoalescingEntry {
                        plan,
                        output: o.output,
                        operand: Some(op),
                        map_index: op.output_maps.len(),
                        result: Err(format!("maps undefined: {u}")),
                    });
                }
            }
            let identity = xla_indexing_core::IndexingMap::identity(&o.shape.dims);
            for (k, write_map) in o.write_maps.iter().enumerate() {
                out.push(CoalescingEntry {
                    plan,
                    output: o.output,
                    operand: None,
                    map_index: k,
                    result: analyze_access(write_map, &identity, &o.shape, device)
                        .map_err(|e| e.to_string()),
                });
            }
        }
    }
    out
}

/// `coalescing --format json`.
pub fn coalescing_json(entries: &[CoalescingEntry<'_>]) -> Value {
    let accesses: Vec<Value> = entries
        .iter()
        .map(|e| {
            let mut v = kernel_json(&e.plan.kernel, &e.plan.computation);
            v["output"] = json!(e.output);
            match e.operand {
                Some(op) => {
                    v["access"] = json!("read");
                    v["operand"] = json!(op.parameter);
                    if let Some(l) = op.leaf {
                        v["leaf"] = json!(l);
                    }
                    v["shape"] = json!(op.shape.to_string());
                    v["map"] = json!(e.map_index);
                }
                None => {
                    v["access"] = json!("store");
                    if e.plan.outputs[e.output].write_maps.len() > 1 {
                        v["map"] = json!(e.map_index);
                    }
                    let shape = e.plan.outputs.iter().find(|o| o.output == e.output);
                    v["shape"] = json!(shape.map(|o| o.shape.to_string()));
                }
            }
            match &e.result {
                Ok(c) => {
                    let names = c.offset_map.var_names();
                    let show = |x: &xla_indexing_core::Expr| {
                        x.display(&xla_indexing_core::print::Names { dims: &names.0, syms: &names.1 }).to_string()
                    };
                    v["coalesced"] = json!(c.coalesced);
                    v["transactions"] = json!(c.transactions);
                    v["ideal"] = json!(c.ideal);
                    v["lanes"] = json!(c.lanes);
                    v["steps"] = json!(c.steps.to_string());
                    v["counted_steps"] = json!(c.counted_steps.to_string());
                    v["offset_map"] = json!(c.offset_map.to_string());
                    v["thread_part"] = json!(show(&c.split.thread));
                    v["loop_part"] = json!(show(&c.split.loops));
                    v["mixed_part"] = json!(show(&c.split.mixed));
                    v["moving"] = c
                        .moving
                        .iter()
                        .map(|m| json!({"dimension": m.dimension, "per_lane": m.per_lane, "layout_stride": m.layout_stride}))
                        .collect();
                    v["reason"] = json!(c.reason);
                }
                Err(why) => {
                    v["coalesced"] = Value::Null;
                    v["error"] = json!(why);
                }
            }
            v
        })
        .collect();
    json!({ "accesses": accesses })
}

/// The text form of [`coalescing_json`].
pub fn coalescing_text(entries: &[CoalescingEntry<'_>]) -> String {
    let mut out = String::new();
    for e in entries {
        let head = match e.operand {
            Some(op) => format!(
                "{} output {} <- operand {} {} (map {})",
                e.plan.kernel.name,
                e.output,
                operand_label(op),
                op.shape,
                e.map_index
            ),
            None if e.plan.outputs[e.output].write_maps.len() > 1 => format!(
                "{} output {} store (map {})",
                e.plan.kernel.name, e.output, e.map_index
            ),
            None => format!("{} output {} store", e.plan.kernel.name, e.output),
        };
        match &e.result {
            Ok(c) => {
                out.push_str(&format!(
                    "{head}: {}\n  warp offsets: {}\n",
                    c.summary(),
                    c.offset_map
                ));
                if let Some(partial) = c.partial_count() {
                    out.push_str(&format!("  {partial}\n"));
                }
                if let Some(r) = &c.reason {
                    out.push_str(&format!("  why: {r}\n"));
                }
            }
            Err(why) => out.push_str(&format!("{head}: not analysed: {why}\n")),
        }
    }
    out
}

/// The tiles of one kernel's output, or why it cannot be tiled.
pub struct KernelTiles {
    /// The kernel.
    pub kernel: Kernel,
    /// The fused computation's name.
    pub computation: String,
    /// The tiled output's index among the kernel's outputs (0-based).
    pub output: usize,
    /// The output's tiling, or why the sizes do not tile it.
    pub tile: Result<crate::tiles::OutputTile, TileError>,
    /// One entry per map of each parameter leaf the output reads (empty when it cannot be tiled).
    pub operands: Vec<TiledOperand>,
}

/// One map by which a parameter leaf is read, and the tile it gives.
pub struct TiledOperand {
    /// The parameter number (`N` of `parameter(N)`).
    pub parameter: usize,
    /// The leaf of the parameter's shape (0 for an array).
    pub leaf: usize,
    /// The leaf's shape as HLO text (empty when the computation lacks the parameter).
    pub shape: String,
    /// The output-to-operand access (absent where the maps are undefined).
    pub access: Option<Access>,
    /// The operand tile that one output tile reads, or why it cannot be expressed.
    pub tile: Result<OperandTile, TileError>,
}

/// Propagates a tile of `sizes` from every kernel's outputs to their operands, calling
/// `progress(done, total)` after each kernel.
pub fn tiles_of_module(
    module: &Module,
    sizes: &[i64],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<KernelTiles>, HloError> {
    let mut out = Vec::new();
    let mut composer = Composer::new(module);
    let kernels = crate::kernel::kernels(module);
    for (done, kernel) in kernels.iter().enumerate() {
        let comp = &module.computations[kernel.computation];
        for (k, shape) in kernel.outputs.iter().enumerate() {
            let tile = output_tile(&shape.dims, sizes);
            let mut operands = Vec::new();
            if let Ok(t) = &tile {
                for p in composer.computation_output_to_input(kernel.computation, k)? {
                    let pshape = comp
                        .parameter(p.parameter)
                        .and_then(|i| {
                            comp.instructions[i]
                                .shape
                                .leaves()
                                .get(p.leaf)
                                .map(|s| s.to_string())
                        })
                        .unwrap_or_default();
                    for a in p.maps.accesses {
                        let result = propagate(t, &a.map);
                        operands.push(TiledOperand {
                            parameter: p.parameter,
                            leaf: p.leaf,
                            shape: pshape.clone(),
                            access: Some(a),
                            tile: result,
                        });
                    }
                    if let Some(u) = p.maps.undefined {
                        let why = TileError(format!("maps undefined: {u}"));
                        operands.push(TiledOperand {
                            parameter: p.parameter,
                            leaf: p.leaf,
                            shape: pshape.clone(),
                            access: None,
                            tile: Err(why),
                        });
                    }
                }
            }
            out.push(KernelTiles {
                kernel: kernel.clone(),
                computation: comp.name.clone(),
                output: k,
                tile,
                operands,
            });
        }
        progress(done + 1, kernels.len());
    }
    Ok(out)
}

fn tile_json(t: &OperandTile) -> Value {
    json!({
        "offsets": t.offsets.to_string(),
        "sizes": t.sizes,
        "strides": t.strides,
        "exact": t.exact,
        "exact_when": (0..t.exact_when.len()).map(|i| t.condition_text(i)).collect::<Vec<_>>(),
        "over_approximation": t.over,
    })
}

/// `tiles --format json`.
pub fn tiles_json(all: &[KernelTiles]) -> Value {
    let kernels: Vec<Value> = all
        .iter()
        .map(|k| {
            let mut v = kernel_json(&k.kernel, &k.computation);
            v["output"] = json!(k.output);
            match &k.tile {
                Ok(t) => {
                    v["tile"] =
                        json!({"sizes": t.sizes, "counts": t.counts, "map": t.map.to_string()});
                    v["operands"] = k
                        .operands
                        .iter()
                        .map(|o| {
                            let mut x =
                                json!({"operand": o.parameter, "leaf": o.leaf, "shape": o.shape});
                            let rt = o.access.as_ref().map(runtime_json).unwrap_or_default();
                            if !rt.is_empty() {
                                x["runtime_vars"] = Value::Array(rt);
                            }
                            match &o.tile {
                                Ok(t) => x["tile"] = tile_json(t),
                                Err(e) => x["inexpressible"] = json!(e.0),
                            }
                            x
                        })
                        .collect();
                }
                Err(e) => v["inexpressible"] = json!(e.0),
            }
            v
        })
        .collect();
    json!({ "kernels": kernels })
}

/// The text form of [`tiles_json`].
pub fn tiles_text(all: &[KernelTiles]) -> String {
    let mut out = String::new();
    for k in all {
        let shape = &k.kernel.outputs[k.output];
        match &k.tile {
            Err(e) => {
                out.push_str(&format!(
                    "{} output {} {shape}: cannot tile: {e}\n\n",
                    k.kernel.name, k.output
                ));
                continue;
            }
            Ok(t) => out.push_str(&format!(
                "{} output {} {shape}: tile {:?}, {:?} tiles\n  output tile: {}\n",
                k.kernel.name, k.output, t.sizes, t.counts, t.map
            )),
        }
        for TiledOperand {
            parameter: p,
            leaf,
            shape,
            access: a,
            tile: r,
        } in &k.operands
        {
            let label = if *leaf > 0 {
                format!("{p}.{leaf}")
            } else {
                p.to_string()
            };
            out.push_str(&format!("  operand {label} {shape}:\n"));
            match r {
                Ok(t) => {
                    out.push_str(&format!(
                        "    offsets {}\n    sizes {:?}, strides {:?}: {}\n",
                        t.offsets,
                        t.sizes,
                        t.strides,
                        if t.exact {
                            "exact"
                        } else {
                            "over-approximation"
                        }
                    ));
                    for i in 0..t.exact_when.len() {
                        out.push_str(&format!("    exact when {}\n", t.condition_text(i)));
                    }
                    for o in &t.over {
                        out.push_str(&format!("    over: {o}\n"));
                    }
                }
                Err(e) => out.push_str(&format!("    cannot be expressed: {e}\n")),
            }
            for (i, rt) in a.iter().flat_map(|a| a.runtime.iter()).enumerate() {
                out.push_str(&format!("    rt{i}: {} at {}\n", rt.instruction, rt.map));
            }
        }
        out.push('\n');
    }
    out
}
