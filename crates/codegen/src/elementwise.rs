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
    let complex = result.is_complex() || args.iter().any(|x| x.element.is_complex());
    if opcode != "select" && (complex || matches!(opcode, "real" | "imag")) {
        super::complex::elementwise(body, opcode, attr, result, args)
    } else {
        super::scalar::elementwise(body, opcode, attr, result, args)
    }
}
