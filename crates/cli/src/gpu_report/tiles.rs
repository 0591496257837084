//! `tiles`: the tile of every kernel's output and the operand tiles it reads, as JSON or text.

use serde_json::{Value, json};
use xla_indexing_gpu::{
    OperandTile,
    kernel_tiles::{KernelTiles, TiledOperand},
};

use xla_indexing_hlo::shape::ArrayShape;

use super::{kernel_json, runtime_json};

/// One operand tile: its offsets, sizes and strides, and how exact it is.
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
pub fn json(all: &[KernelTiles]) -> Value {
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
                            let mut x = json!({"operand": o.parameter, "leaf": o.leaf, "shape": shape_text(&o.shape)});
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

/// The text form of [`json`].
pub fn text(all: &[KernelTiles]) -> String {
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
        for o @ TiledOperand {
            shape,
            access: a,
            tile: r,
            ..
        } in &k.operands
        {
            let label = o.label();
            out.push_str(&format!("  operand {label} {}:\n", shape_text(shape)));
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

/// A parameter leaf's shape as HLO text (empty where the computation lacks the parameter).
pub(super) fn shape_text(shape: &Option<ArrayShape>) -> String {
    shape.as_ref().map(|s| s.to_string()).unwrap_or_default()
}
