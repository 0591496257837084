//! The kernels of a module: one per fusion instruction outside fused computations (or the entry
//! computation when the module has no fusion: with no `ENTRY` written, the last computation, as
//! XLA's emitter test harness takes it), with the facts the launch maths needs.

use std::collections::HashSet;
use xla_indexing_hlo::Opcode;

use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::module::{Instruction, Module};
use xla_indexing_hlo::shape::ArrayShape;

/// One kernel to launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The fusion instruction's name (the entry computation's name when there is no fusion).
    pub name: String,
    /// The computation the kernel runs (the fused computation).
    pub computation: usize,
    /// The fusion's `kind=` as written (`kLoop`, `kInput`, ...).
    pub kind: Option<String>,
    /// The output buffers the kernel writes, with their layouts.
    pub outputs: Vec<ArrayShape>,
    /// The loop emitter's unroll factor that the fusion's `backend_config` sets (XLA's
    /// `native_emitter_backend_config` of type `NATIVE_EMITTER_TYPE_LOOP`, as its autotuner
    /// writes it), in place of the one XLA's heuristic picks.
    pub unroll_factor: Option<u64>,
    /// 1-based line of the fusion instruction (of the entry computation without fusions).
    pub line: usize,
    /// 1-based column of the fusion instruction (of the entry computation without fusions).
    pub column: usize,
}

impl Kernel {
    /// The error of a kernel the code generator cannot write, saying why.
    pub fn lowering_error(&self, why: impl std::fmt::Display) -> HloError {
        self.error(format!("cannot be lowered: {why}"))
    }

    /// An analysis error naming the kernel.
    pub fn error(&self, message: impl Into<String>) -> HloError {
        HloError::Analysis {
            instruction: self.name.clone(),
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// Every kernel of the module in text order: the fusion instructions of computations that are
/// not themselves fused; the entry computation alone when there is none (the last computation
/// when none is marked `ENTRY`, as in XLA's emitter tests; the CLI refuses a module first when
/// its marked entry holds more than one op: [`crate::check_fused`]).
pub fn kernels(module: &Module) -> Vec<Kernel> {
    let fused: HashSet<&str> = module
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter())
        .filter(|i| i.opcode == Opcode::Fusion)
        .flat_map(|i| i.called("calls").iter().map(String::as_str))
        .collect();
    let mut out = Vec::new();
    for comp in module
        .computations
        .iter()
        .filter(|c| !fused.contains(&c.name.as_str()))
    {
        for instr in comp
            .instructions
            .iter()
            .filter(|i| i.opcode == Opcode::Fusion)
        {
            let [callee] = instr.called("calls") else {
                continue;
            };
            let Some(c) = module.computation(callee) else {
                continue;
            };
            out.push(Kernel {
                name: instr.name.clone(),
                computation: c,
                kind: kind(instr),
                outputs: with_root_layouts(instr, module, c),
                unroll_factor: tuned_unroll_factor(instr),
                line: instr.pos.line,
                column: instr.pos.column,
            });
        }
    }
    if out.is_empty() {
        let entry = &module.computations[module.entry];
        let root = &entry.instructions[entry.root];
        out.push(Kernel {
            name: entry.name.clone(),
            computation: module.entry,
            kind: None,
            outputs: root.shape.leaves().into_iter().cloned().collect(),
            unroll_factor: None,
            line: entry.pos.line,
            column: entry.pos.column,
        });
    }
    out
}

fn kind(instr: &Instruction) -> Option<String> {
    match instr.attr("kind") {
        Some(xla_indexing_hlo::attrs::AttrValue::Raw(k)) => Some(k.clone()),
        _ => None,
    }
}

/// The unroll factor of a loop fusion's `native_emitter_backend_config` (at the top of the
/// `backend_config`, or in its `fusion_backend_config`), when it is of the loop emitter and
/// positive.
fn tuned_unroll_factor(instr: &Instruction) -> Option<u64> {
    let Some(xla_indexing_hlo::attrs::AttrValue::Json(config)) = instr.attr("backend_config")
    else {
        return None;
    };
    [
        &config["native_emitter_backend_config"],
        &config["fusion_backend_config"]["native_emitter_backend_config"],
    ]
    .into_iter()
    .filter(|native| native["type"] == "NATIVE_EMITTER_TYPE_LOOP")
    .find_map(|native| {
        // Protobuf's JSON writes 64-bit integers as strings, 32-bit ones as numbers.
        let factor = &native["unroll_factor"];
        factor
            .as_u64()
            .or_else(|| factor.as_str().and_then(|s| s.parse().ok()))
    })
    .filter(|&f| f > 0)
}

/// The fusion's result leaves; a leaf written without a layout takes the fused root's.
fn with_root_layouts(instr: &Instruction, module: &Module, c: usize) -> Vec<ArrayShape> {
    let comp = &module.computations[c];
    let root_leaves = comp.instructions[comp.root].shape.leaves();
    instr
        .shape
        .leaves()
        .into_iter()
        .enumerate()
        .map(|(k, leaf)| {
            let mut leaf = leaf.clone();
            if leaf.layout.is_none() {
                leaf.layout = root_leaves.get(k).and_then(|r| r.layout.clone());
            }
            leaf
        })
        .collect()
}

/// Bits of one element of an XLA element type, `None` for `token` and unknown names.
pub fn element_bits(element: &str) -> Option<u64> {
    Some(match element {
        "s1" | "u1" => 1,
        "s2" | "u2" => 2,
        "s4" | "u4" | "f4e2m1fn" => 4,
        "pred" | "s8" | "u8" => 8,
        _ if element.starts_with("f8") => 8,
        "f6e2m3fn" | "f6e3m2fn" => 6,
        "s16" | "u16" | "f16" | "bf16" => 16,
        "s32" | "u32" | "f32" => 32,
        "s64" | "u64" | "f64" | "c64" => 64,
        "c128" => 128,
        _ => return None,
    })
}
