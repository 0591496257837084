//! `launch`: per kernel the grid, the unroll factor, the emitter, the thread-id map and the
//! thread-id to operand maps, as JSON or text.

use serde_json::{Value, json};
use xla_indexing_gpu::tiling_space::TiledPlan;
use xla_indexing_gpu::{
    EmitterPlan, KernelPlan, reduction::SharedBuffer, transpose::TransposePlan,
};

use super::{kernel_json, operand_label, runtime_json};

/// `launch`: per kernel the grid, the unroll factor, the thread-id map and the thread-id to
/// operand maps.
pub fn json(plans: &[KernelPlan]) -> Value {
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
                v["fallback"] = json!(why.to_string());
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
                    v["write_map"] = json!(t.write_map().to_string());
                    v["shared"] = shared_json(&tiles(t));
                }
                EmitterPlan::Concatenate(c) => {
                    v["write_maps"] = c.loops.iter().map(|l| json!(l.write_map.to_string())).collect();
                }
                EmitterPlan::Scatter(s) => {
                    v["write_map"] = json!(s.write.map.to_string());
                    v["combiner"] = json!(s.combiner.name());
                    v["distribution"] = json!(s.distribution.describe());
                    v["operand_parameters"] = json!(s.operand_parameters);
                }
                EmitterPlan::InPlace(ip) => {
                    v["write_maps"] = ip
                        .slices
                        .iter()
                        .map(|s| json!(s.write_map.to_string()))
                        .collect();
                    v["operand_parameters"] =
                        ip.slices.iter().map(|s| s.operand_parameter).collect();
                }
                EmitterPlan::InputSlices(is) => {
                    v["write_maps"] = is
                        .slices
                        .iter()
                        .map(|s| json!(s.write_map.to_string()))
                        .collect();
                }
                EmitterPlan::PadToStatic(pad) => {
                    v["read_map"] = json!(pad.read_map.to_string());
                    v["input"] = json!(pad.input.to_string());
                }
                EmitterPlan::Tiled(t) => v["tiling"] = tiling_json(t),
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

/// The text form of [`json`].
pub fn text(plans: &[KernelPlan]) -> String {
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
            EmitterPlan::Tiled(t) => out.push_str(&format!("  emitter: {}\n", tiling_text(t))),
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
                t.write_map(),
                shared_text(&tiles(t))
            )),
            EmitterPlan::Scatter(s) => {
                out.push_str(&format!(
                    "  emitter: scatter ({}; {}; {})\n  write map: {}\n",
                    s.combiner.name(),
                    s.distribution.describe(),
                    starts_as(&s.operand_parameters),
                    s.write.map
                ));
                for (k, rt) in s.write.runtime.iter().enumerate() {
                    out.push_str(&format!("    rt{k}: {} at {}\n", rt.instruction, rt.map));
                }
            }
            EmitterPlan::InPlace(ip) => {
                let parameters: Vec<usize> =
                    ip.slices.iter().map(|s| s.operand_parameter).collect();
                out.push_str(&format!(
                    "  emitter: in-place dynamic-update-slice ({})\n",
                    starts_as(&parameters)
                ));
                for (k, s) in ip.slices.iter().enumerate() {
                    out.push_str(&format!("  output {k} write map: {}\n", s.write_map));
                }
            }
            EmitterPlan::PadToStatic(pad) => out.push_str(&format!(
                "  emitter: pad to static ({} read densely, rtK its size K)\n  read map: {}\n",
                pad.input, pad.read_map
            )),
            EmitterPlan::InputSlices(is) => {
                out.push_str("  emitter: input slices\n");
                for (k, s) in is.slices.iter().enumerate() {
                    out.push_str(&format!("  output {k} write map: {}\n", s.write_map));
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

/// The shared tiles of a transpose kernel, one per hero.
fn tiles(t: &TransposePlan) -> Vec<SharedBuffer> {
    t.heroes.iter().map(|h| h.tile.clone()).collect()
}

/// `the output starts as parameter 0`, or for several outputs `the outputs start as parameters
/// 0 and 1` (`0, 1 and 2`, ...).
fn starts_as(parameters: &[usize]) -> String {
    let names: Vec<String> = parameters.iter().map(|p| p.to_string()).collect();
    match names.as_slice() {
        [one] => format!("the output starts as parameter {one}"),
        [rest @ .., last] => format!(
            "the outputs start as parameters {} and {last}",
            rest.join(", ")
        ),
        [] => "no output".into(),
    }
}

/// A kernel's tiling as JSON: sizes, tiles per dimension and, where the cost model chose it,
/// its cost.
fn tiling_json(t: &TiledPlan) -> Value {
    let mut v = json!({"sizes": t.sizes, "tiles": t.counts});
    if let Some(c) = &t.cost {
        v["cost"] = json!(c.cost);
    }
    v
}

/// `tiled loop, tiles [4, 64] ([8, 2] of them)`, and `, best by the cost model (cost C)` where
/// the model chose it.
fn tiling_text(t: &TiledPlan) -> String {
    let chosen = t
        .cost
        .as_ref()
        .map(|c| format!(", best by the cost model (cost {:.4e})", c.cost))
        .unwrap_or_default();
    format!(
        "tiled loop, tiles {:?} ({:?} of them){chosen}",
        t.sizes, t.counts
    )
}
