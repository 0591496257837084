//! Text and JSON of what the GPU commands print: `launch` (the plans of the kernels),
//! `coalescing` (every access of every plan analysed) and `tiles` (an output tile propagated to
//! the operands, symbolic tiles, tiling spaces and their costs). The planner gives the data (`xla_indexing_gpu`); how it is written is the
//! command's.

pub mod coalescing;
pub mod launch;
pub mod tiles;
pub mod tiling;

use serde_json::{Value, json};
use xla_indexing_gpu::{Kernel, plan::OperandPlan};
use xla_indexing_hlo::access::Access;

/// An operand as `parameter` or `parameter.leaf`.
fn operand_label(op: &OperandPlan) -> String {
    match op.leaf {
        Some(l) => format!("{}.{l}", op.parameter),
        None => op.parameter.to_string(),
    }
}

/// The runtime variables of an access: `rtK`, the instruction that holds each value and the map
/// to the element that holds it.
fn runtime_json(a: &Access) -> Vec<Value> {
    a.runtime
        .iter()
        .enumerate()
        .map(|(k, rt)| json!({"var": format!("rt{k}"), "instruction": rt.instruction, "map": rt.map.to_string()}))
        .collect()
}

/// The fields that name a kernel in every report.
fn kernel_json(k: &Kernel, computation: &str) -> Value {
    json!({"fusion": k.name, "computation": computation, "kind": k.kind, "line": k.line})
}
