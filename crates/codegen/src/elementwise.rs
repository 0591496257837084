//! Elementwise ops on scalars: the operands counted, then the op written by `scalar.rs` for
//! real element types or by `complex.rs` where an operand or the result is complex (and for
//! `real` and `imag`, which read complex values or give a real one's parts).

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::scalar::{Typed, arity};
use super::types::{Class, Element};
use xla_indexing_hlo::Opcode;

/// The value of elementwise op `opcode` (with attributes read through `attr`) on `args`, of
/// element type `result`; `Err` says why the op is not lowered.
pub fn elementwise(
    body: &mut Body,
    opcode: Opcode,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, CodegenError> {
    let arity = arity(opcode);
    if args.len() != arity {
        return Err(CodegenError::Arity {
            opcode,
            arity,
            given: args.len(),
        });
    }
    let fp4 = |e: Element| e.class == Class::Fp4;
    if !matches!(opcode, Opcode::Convert | Opcode::Copy)
        && (fp4(result) || args.iter().any(|x| fp4(x.element)))
    {
        return Err(CodegenError::Fp4(opcode));
    }
    let fp8 = |e: Element| matches!(e.class, Class::Fp8(_));
    if !matches!(
        opcode,
        Opcode::Convert | Opcode::Copy | Opcode::Select | Opcode::BitcastConvert
    ) && (fp8(result) || args.iter().any(|x| fp8(x.element)))
    {
        return on_f32(body, opcode, attr, result, args);
    }
    if let (Opcode::StochasticConvert, [x, random]) = (opcode, args) {
        return super::stochastic_convert::stochastic_convert(body, result, x, random);
    }
    let complex = result.is_complex() || args.iter().any(|x| x.element.is_complex());
    if opcode != Opcode::Select && (complex || matches!(opcode, Opcode::Real | Opcode::Imag)) {
        super::complex::elementwise(body, opcode, attr, result, args)
    } else {
        super::scalar::elementwise(body, opcode, attr, result, args)
    }
}

/// An op with 8-bit float operands or result, computed on `f32` values: the 8-bit operands
/// converted (exactly), the op applied, and an 8-bit result rounded back, as XLA computes
/// these types where the GPU has no arithmetic for them.
fn on_f32(
    body: &mut Body,
    opcode: Opcode,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, CodegenError> {
    let f32 = Element::of("f32")?;
    let widen = |e: Element| {
        if matches!(e.class, Class::Fp8(_)) {
            f32
        } else {
            e
        }
    };
    let wide: Vec<Typed> = args
        .iter()
        .map(|a| Typed {
            value: super::scalar::convert(body, a, widen(a.element)),
            element: widen(a.element),
        })
        .collect();
    let value = elementwise(body, opcode, attr, widen(result), &wide)?;
    Ok(super::scalar::convert(
        body,
        &Typed {
            value,
            element: widen(result),
        },
        result,
    ))
}

#[cfg(test)]
mod tests {
    use xla_indexing_hlo::ops::{OpKind, op_kind};

    use super::*;

    /// The operand and result element types an elementwise op is tried with: integers for the
    /// bitwise ops, complex values for the ops that make or take them apart, `f32` otherwise.
    fn types(op: Opcode) -> (&'static str, &'static str) {
        match op {
            Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Not
            | Opcode::ShiftLeft
            | Opcode::ShiftRightArithmetic
            | Opcode::ShiftRightLogical
            | Opcode::Popcnt
            | Opcode::CountLeadingZeros
            | Opcode::Mulhi => ("s32", "s32"),
            Opcode::StochasticConvert => ("f32", "s32"),
            Opcode::Complex => ("f32", "c64"),
            Opcode::Real | Opcode::Imag => ("c64", "f32"),
            Opcode::Compare | Opcode::IsFinite => ("f32", "pred"),
            _ => ("f32", "f32"),
        }
    }

    /// The elementwise opcodes that code generation refuses, as the README's "Not built" says.
    const NOT_LOWERED: [Opcode; 0] = [];

    /// Every elementwise opcode of the enum but `map` (which calls a computation) and those of
    /// [`NOT_LOWERED`] is lowered, so an opcode added to the family without a lowering (or a
    /// lowering added without updating the list) is caught here.
    #[test]
    fn every_elementwise_opcode_is_lowered() {
        let attr = |key: &str| match key {
            "direction" => Some("LT".to_string()),
            "exponent_bits" => Some("5".to_string()),
            "mantissa_bits" => Some("10".to_string()),
            _ => None,
        };
        let mut missing = Vec::new();
        for &op in Opcode::ALL {
            if op_kind(op) != Some(OpKind::Elementwise) || op == Opcode::Map {
                continue;
            }
            let (operand, result) = types(op);
            let element = Element::of(operand).unwrap();
            let mut body = Body::at_depth(1);
            let args: Vec<Typed> = (0..arity(op))
                .map(|k| Typed {
                    value: Scalar::new(format!("%a{k}"), element.mlir),
                    element,
                })
                .collect();
            // The operands of other types: `select`'s predicate, `stochastic-convert`'s random
            // bits.
            let mut args = args;
            let other = match op {
                Opcode::Select => Some((0, "pred")),
                Opcode::StochasticConvert => Some((1, "u32")),
                _ => None,
            };
            if let Some((k, ty)) = other {
                let element = Element::of(ty).unwrap();
                args[k] = Typed {
                    value: Scalar::new(format!("%o{k}"), element.mlir),
                    element,
                };
            }
            let lowered = elementwise(&mut body, op, &attr, Element::of(result).unwrap(), &args);
            if let Err(why) = lowered {
                missing.push((op, why));
            }
        }
        let ops: Vec<Opcode> = missing.iter().map(|(op, _)| *op).collect();
        assert_eq!(ops, NOT_LOWERED, "not lowered: {missing:#?}");
    }
}
