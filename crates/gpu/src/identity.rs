//! Whether a reduction's initial value is an identity of its reducer, so that applying it once
//! per thread (as the reduction emitter's partial results do) gives the value of applying it
//! once.

use crate::kernel::element_bits;
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::module::{Computation, Instruction, Module};

/// What kind of number an element type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Pred,
    Signed,
    Unsigned,
    Float,
}

/// The class and bits of XLA element type `element` (`f32`, `s8`, `pred`, ...).
pub(crate) fn class_of(element: &str) -> Option<(Class, u32)> {
    let bits = u32::try_from(element_bits(element)?).ok()?;
    let class = match element.chars().next()? {
        _ if element == "pred" => Class::Pred,
        's' => Class::Signed,
        'u' => Class::Unsigned,
        'f' | 'b' => Class::Float,
        _ => return None,
    };
    Some((class, bits))
}

/// Whether the reducer `callee` is one binary op of its two parameters whose identity is the
/// literal of `init` (a `constant`) for elements of XLA type `element`: `add`, `or` and `xor`
/// with 0, `multiply` and `and` with 1 (all ones for `and` on integers, `true` on pred),
/// `maximum` with `-inf` or the type's least value, `minimum` with `inf` or its greatest.
pub fn is_identity(module: &Module, callee: &str, init: &Instruction, element: &str) -> bool {
    let Some((class, bits)) = class_of(element) else {
        return false;
    };
    let Some(c) = module.computation(callee) else {
        return false;
    };
    let Some(root) = binary_of_parameters(&module.computations[c]) else {
        return false;
    };
    if init.opcode != Opcode::Constant {
        return false;
    }
    let Some(literal) = init.literal.as_deref().map(str::trim) else {
        return false;
    };
    let want = match (root.opcode, class) {
        (Opcode::Add | Opcode::Or | Opcode::Xor, _) => Identity::Zero,
        (Opcode::Multiply, _) => Identity::One,
        (Opcode::And, Class::Pred) => Identity::One,
        (Opcode::And, _) => Identity::AllOnes,
        (Opcode::Maximum, _) => Identity::Lowest,
        (Opcode::Minimum, _) => Identity::Highest,
        _ => return false,
    };
    want.matches(literal, class, bits)
}

/// The root of computation `comp` when it is one op of its two parameters, in either order (a
/// reducer's or a combiner's `op(a, b)`).
pub(crate) fn binary_of_parameters(comp: &Computation) -> Option<&Instruction> {
    let root = &comp.instructions[comp.root];
    let params: Vec<Option<usize>> = root
        .operands
        .iter()
        .map(|&o| comp.instructions[o].parameter_number)
        .collect();
    let binary = comp.num_parameters() == 2
        && (params == [Some(0), Some(1)] || params == [Some(1), Some(0)]);
    binary.then_some(root)
}

/// The identities [`is_identity`] knows.
enum Identity {
    Zero,
    One,
    AllOnes,
    Lowest,
    Highest,
}

impl Identity {
    /// Whether `literal` (as HLO writes a scalar constant) is this identity of elements of
    /// `class` and `bits`.
    fn matches(&self, literal: &str, class: Class, bits: u32) -> bool {
        match class {
            Class::Pred => match self {
                Identity::Zero | Identity::Lowest => literal == "false",
                Identity::One | Identity::AllOnes | Identity::Highest => literal == "true",
            },
            Class::Float => {
                let Ok(v) = literal.parse::<f64>() else {
                    return false;
                };
                match self {
                    Identity::Zero => v == 0.0,
                    Identity::One => v == 1.0,
                    Identity::AllOnes => false,
                    Identity::Lowest => v == f64::NEG_INFINITY,
                    Identity::Highest => v == f64::INFINITY,
                }
            }
            Class::Signed | Class::Unsigned => {
                let Ok(v) = literal.parse::<i128>() else {
                    return false;
                };
                let (lo, hi) = if class == Class::Signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                match self {
                    Identity::Zero => v == 0,
                    Identity::One => v == 1,
                    Identity::AllOnes => v == -1 || (class == Class::Unsigned && v == hi),
                    Identity::Lowest => v == lo,
                    Identity::Highest => v == hi,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xla_indexing_hlo::parse_module;

    fn module(op: &str, ty: &str, init: &str) -> Module {
        parse_module(&format!(
            "HloModule m\n\nr (a: {ty}[], b: {ty}[]) -> {ty}[] {{\n  a = {ty}[] parameter(0)\n  b = {ty}[] parameter(1)\n  ROOT c = {ty}[] {op}(a, b)\n}}\n\nENTRY e (p: {ty}[4]) -> {ty}[] {{\n  p = {ty}[4] parameter(0)\n  i = {ty}[] constant({init})\n  ROOT s = {ty}[] reduce(p, i), dimensions={{0}}, to_apply=r\n}}\n"
        ))
        .unwrap()
    }

    fn check(op: &str, ty: &str, init: &str) -> bool {
        let m = module(op, ty, init);
        let entry = &m.computations[m.entry];
        let init = &entry.instructions[1];
        is_identity(&m, "r", init, ty)
    }

    #[test]
    fn identities_of_the_common_reducers() {
        assert!(check("add", "f32", "0"));
        assert!(check("add", "f32", "-0"));
        assert!(check("maximum", "f32", "-inf"));
        assert!(check("minimum", "f16", "inf"));
        assert!(check("maximum", "s32", "-2147483648"));
        assert!(check("minimum", "u8", "255"));
        assert!(check("multiply", "s64", "1"));
        assert!(check("and", "pred", "true"));
        assert!(check("or", "pred", "false"));
        assert!(check("and", "u8", "255"));
    }

    #[test]
    fn other_initial_values_are_not() {
        assert!(!check("add", "f32", "1"));
        assert!(!check("maximum", "f32", "0"));
        assert!(!check("maximum", "s32", "-2147483647"));
        assert!(!check("multiply", "f32", "0"));
        assert!(!check("subtract", "f32", "0"));
        assert!(!check("and", "pred", "false"));
    }
}
