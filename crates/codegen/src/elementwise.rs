//! Elementwise ops on scalars: the operands counted, then the op written by `scalar.rs` for
//! real element types or by `complex.rs` where an operand or the result is complex (and for
//! `real` and `imag`, which read complex values or give a real one's parts).

use super::body::{Body, Scalar};
use super::scalar::{Typed, arity};
use super::types::{Class, Element};

/// The value of elementwise op `opcode` (with attributes read through `attr`) on `args`, of
/// element type `result`; `Err` says why the op is not lowered.
pub fn elementwise(
    body: &mut Body,
    opcode: &str,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, String> {
    let arity = arity(opcode);
    if args.len() != arity {
        return Err(format!(
            "{opcode} takes {arity} operands, not {}",
            args.len()
        ));
    }
    let fp4 = |e: Element| e.class == Class::Fp4;
    if !matches!(opcode, "convert" | "copy") && (fp4(result) || args.iter().any(|x| fp4(x.element)))
    {
        return Err(format!(
            "{opcode} of f4e2m1fn values is not lowered (they are only converted)"
        ));
    }
    let fp8 = |e: Element| matches!(e.class, Class::Fp8(_));
    if !matches!(opcode, "convert" | "copy" | "select" | "bitcast-convert")
        && (fp8(result) || args.iter().any(|x| fp8(x.element)))
    {
        return on_f32(body, opcode, attr, result, args);
    }
    let complex = result.is_complex() || args.iter().any(|x| x.element.is_complex());
    if opcode != "select" && (complex || matches!(opcode, "real" | "imag")) {
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
    opcode: &str,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, String> {
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
