//! Modules that look like HLO before XLA's fusion passes: no `fusion` anywhere, and an `ENTRY`
//! computation that does more than one thing. Their kernels are not known (XLA's fusion passes
//! choose them), so the GPU commands refuse them rather than plan the entry as one kernel.
//!
//! A module with no computation marked `ENTRY` is read as XLA's emitter test harness
//! (`fusion_to_mlir`) reads its test files, a bare list of computations: the last one is the
//! fused computation of one kernel, whatever it holds ([`crate::kernels`] plans it so).

use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::module::Module;

/// Opcodes that move no data by themselves: any number of them beside one op is still a module
/// whose kernel is that op.
const TRIVIAL: [Opcode; 5] = [
    Opcode::Parameter,
    Opcode::Constant,
    Opcode::Tuple,
    Opcode::GetTupleElement,
    Opcode::Bitcast,
];

/// How many ops of the entry [`check_fused`]'s error names.
const NAMED_OPS: usize = 4;

/// `Ok` when the module has a `fusion` instruction, has no computation marked `ENTRY` (a bare
/// fusion computation, as XLA's emitter tests write them), or its entry computation holds at
/// most one op beside parameters, constants, tuples and bitcasts (a hand-written one-kernel
/// module); otherwise an error at the entry computation that says the module is unfused and how
/// to get the module XLA compiled.
pub fn check_fused(module: &Module) -> Result<(), HloError> {
    let has_fusion = module
        .computations
        .iter()
        .flat_map(|c| &c.instructions)
        .any(|i| i.opcode == Opcode::Fusion);
    let entry = &module.computations[module.entry];
    if !entry.is_entry {
        return Ok(());
    }
    let ops: Vec<Opcode> = entry
        .instructions
        .iter()
        .map(|i| i.opcode)
        .filter(|op| !TRIVIAL.contains(op))
        .collect();
    if has_fusion || ops.len() <= 1 {
        return Ok(());
    }
    let mut named: Vec<&str> = Vec::new();
    for op in &ops {
        if !named.contains(&op.as_str()) && named.len() < NAMED_OPS {
            named.push(op.as_str());
        }
    }
    Err(HloError::Analysis {
        instruction: entry.name.clone(),
        line: entry.pos.line,
        column: entry.pos.column,
        message: format!(
            "the module has no fusions: its entry computation holds {} ops ({}{}), so it looks \
             like HLO before XLA's fusion passes, whose kernels are not known yet; give the module \
             XLA compiled instead: run with XLA_FLAGS=--xla_dump_to=DIR and pass \
             DIR/module_*.gpu_after_optimizations.txt (or *.after_optimizations.txt)",
            ops.len(),
            named.join(", "),
            if named.len() < ops.len() { ", ..." } else { "" },
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), HloError> {
        check_fused(&xla_indexing_hlo::parse_module(text).unwrap())
    }

    #[test]
    fn one_op_is_one_kernel() {
        check("ENTRY e {\n  p = f32[8] parameter(0)\n  c = f32[8] constant({1,2,3,4,5,6,7,8})\n  ROOT a = f32[8] add(p, c)\n}\n").unwrap();
    }

    #[test]
    fn a_bare_computation_of_several_ops_is_a_fusion() {
        check("e {\n  p = f32[8] parameter(0)\n  n = f32[8] negate(p)\n  ROOT x = f32[8] exponential(n)\n}\n").unwrap();
    }

    #[test]
    fn several_ops_without_fusions_are_refused_at_the_entry() {
        let e = check(
            "ENTRY e {\n  p = f32[8] parameter(0)\n  n = f32[8] negate(p)\n  ROOT x = f32[8] exponential(n)\n}\n",
        )
        .unwrap_err();
        assert_eq!(e.location(), Some((1, 1)));
        assert!(e.message().starts_with("e: the module has no fusions: its entry computation holds 2 ops (negate, exponential)"), "{}", e.message());
    }

    #[test]
    fn a_fusion_anywhere_makes_the_module_fused() {
        check("f {\n  q = f32[8] parameter(0)\n  ROOT n = f32[8] negate(q)\n}\nENTRY e {\n  p = f32[8] parameter(0)\n  m = f32[8] negate(p)\n  ROOT x = f32[8] fusion(m), kind=kLoop, calls=f\n}\n").unwrap();
    }
}
