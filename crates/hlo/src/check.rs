//! Checks of a whole module that compose no maps: every instruction's own maps can be built
//! (what the analysis checks of each op it reaches: operand and result shapes, attributes,
//! sizes and offsets that would overflow), every `fusion` and `call` matches the computation it
//! calls, and no computation calls itself through fusions and calls. Tools that write a module
//! out (`xla-indexing import`) check it so, and refuse what the analysis refuses.

use crate::error::HloError;
use crate::fusion::{callee, recursion_error};
use crate::module::{Computation, Instruction, Module};
use crate::ops::{self, OpContext, OpKind};

/// Checks every instruction of every computation, in the order of the text, then the calls
/// between computations; the first error found.
pub fn check_module(module: &Module) -> Result<(), HloError> {
    // Per computation, its `fusion`s and `call`s: (instruction, computation called).
    let mut calls: Vec<Vec<(usize, usize)>> = vec![Vec::new(); module.computations.len()];
    for (comp, out) in module.computations.iter().zip(&mut calls) {
        for (i, instr) in comp.instructions.iter().enumerate() {
            if let Some(c) = check_instruction(module, comp, instr)? {
                out.push((i, c));
            }
        }
    }
    check_recursion(module, &calls)
}

/// Checks one instruction: the computation it calls, for a `fusion` or `call`.
fn check_instruction(
    module: &Module,
    comp: &Computation,
    instr: &Instruction,
) -> Result<Option<usize>, HloError> {
    let cx = OpContext::new(module, comp, instr);
    match ops::instruction_kind(instr) {
        // Ops without indexing are reported as unsupported, not refused.
        None => Ok(None),
        Some(OpKind::Call) => callee(module, &cx).map(Some),
        Some(_) => {
            for leaf in 0..instr.shape.leaf_count() {
                ops::output_to_input(&cx, leaf)?;
            }
            Ok(None)
        }
    }
}

/// An error at a call that closes a cycle of `calls` (per computation, its calls as
/// `(instruction, callee)`), found by a depth-first walk with a stack of its own.
fn check_recursion(module: &Module, calls: &[Vec<(usize, usize)>]) -> Result<(), HloError> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Unseen,
        Open,
        Done,
    }
    let mut state = vec![State::Unseen; calls.len()];
    for start in 0..calls.len() {
        if state[start] != State::Unseen {
            continue;
        }
        state[start] = State::Open;
        // The computations being walked, each with its next call to follow.
        let mut stack = vec![(start, 0)];
        while let Some(top) = stack.last_mut() {
            let (c, next) = *top;
            let Some(&(i, callee)) = calls[c].get(next) else {
                state[c] = State::Done;
                stack.pop();
                continue;
            };
            top.1 += 1;
            match state[callee] {
                State::Open => {
                    let comp = &module.computations[c];
                    let cx = OpContext::new(module, comp, &comp.instructions[i]);
                    return Err(recursion_error(module, &cx, callee));
                }
                State::Unseen => {
                    state[callee] = State::Open;
                    stack.push((callee, 0));
                }
                State::Done => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_module;

    /// The error `check_module` gives for `text`, as `(instruction, line, message)`.
    fn refusal(text: &str) -> Option<(String, usize, String)> {
        let module = parse_module(text).expect("the module parses");
        match check_module(&module) {
            Ok(()) => None,
            Err(HloError::Analysis {
                instruction,
                line,
                message,
                ..
            }) => Some((instruction, line, message)),
            Err(e) => panic!("not an analysis error: {e}"),
        }
    }

    #[test]
    fn check_refuses_an_overflowing_pad_at_its_line() {
        let text = "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0)\n  z = f32[] constant(0)\n  \
                    ROOT q = f32[9223372036854775807]{0} pad(p, z), padding=9223372036854775800_3_1\n}\n";
        assert_eq!(
            refusal(text),
            Some(("q".into(), 5, "padded size overflows".into()))
        );
    }

    #[test]
    fn check_refuses_a_fusion_that_does_not_match_its_computation() {
        let text = "HloModule m\n\nf {\n  a = f32[4]{0} parameter(0)\n  b = f32[4]{0} parameter(1)\n  \
                    ROOT s = f32[4]{0} add(a, b)\n}\n\nENTRY e {\n  x = f32[4]{0} parameter(0)\n  \
                    ROOT y = f32[4]{0} fusion(x), kind=kLoop, calls=f\n}\n";
        assert_eq!(
            refusal(text),
            Some((
                "y".into(),
                11,
                "f has 2 parameters but the call passes 1 operands".into()
            ))
        );
    }

    #[test]
    fn check_refuses_calls_in_a_cycle() {
        let text = "HloModule m\n\na {\n  p = f32[4]{0} parameter(0)\n  ROOT c = f32[4]{0} call(p), to_apply=b\n}\n\n\
                    b {\n  p = f32[4]{0} parameter(0)\n  ROOT c = f32[4]{0} call(p), to_apply=a\n}\n\n\
                    ENTRY e {\n  x = f32[4]{0} parameter(0)\n  ROOT y = f32[4]{0} call(x), to_apply=a\n}\n";
        assert_eq!(
            refusal(text),
            Some(("c".into(), 10, "computation a calls itself".into()))
        );
    }

    #[test]
    fn check_accepts_a_computation_called_twice_and_unsupported_ops() {
        let text = "HloModule m\n\nf {\n  p = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p)\n}\n\n\
                    ENTRY e {\n  x = f32[4]{0} parameter(0)\n  a = f32[4]{0} fusion(x), kind=kLoop, calls=f\n  \
                    b = f32[4]{0} call(a), to_apply=f\n  ROOT s = f32[4]{0} custom-call(b), custom_call_target=\"opaque\"\n}\n";
        assert_eq!(refusal(text), None);
    }
}
