//! `reduce-precision`, as XLA computes it on the bits of the value: the mantissa rounded to
//! `mantissa_bits` bits (to nearest, ties to even, carrying into the exponent), then, with
//! `exponent_bits` bits of exponent, a value past the largest exponent an infinity of its sign
//! and one at or below the smallest normal's exponent a zero of its sign (subnormals are
//! flushed); a NaN stays the NaN it was.

use xla_indexing_core::interval::wrap_signed;

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::types::Element;

/// `reduce-precision` of `a`, a float of type `element`, with the bits its attributes
/// `exponent_bits` and `mantissa_bits` (read through `attr`) give.
pub fn reduce_precision(
    body: &mut Body,
    attr: &dyn Fn(&str) -> Option<String>,
    a: &Scalar,
    element: Element,
) -> Result<Scalar, CodegenError> {
    let ty = element.mlir;
    let (src_exponent, src_mantissa) = element.float_format().ok_or(CodegenError::NotLowered {
        opcode: xla_indexing_hlo::Opcode::ReducePrecision,
        element: ty,
    })?;
    let bits = |key: &'static str| {
        attr(key)
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or(CodegenError::ReducePrecisionBits(key))
    };
    let (exponent, mantissa) = (bits("exponent_bits")?, bits("mantissa_bits")?);
    if exponent == 0 {
        return Err(CodegenError::ReducePrecisionBits("exponent_bits"));
    }
    let width = 1 + src_exponent + src_mantissa;
    let int = format!("i{width}");
    let x = &a.name;
    let mut value = body.op("bits", &int, format!("arith.bitcast {x} : {ty} to {int}"));
    // Integer constants are written signed, as MLIR reads them: the pattern's low `width` bits.
    let constant = |body: &mut Body, v: u64| {
        body.constant(&wrap_signed(i128::from(v), width).to_string(), &int)
    };
    let op = |body: &mut Body, name: &str, l: &Scalar, r: &Scalar| {
        body.op(
            "bits",
            &int,
            format!("{name} {}, {} : {int}", l.name, r.name),
        )
    };
    if mantissa < src_mantissa {
        // Round to nearest even on the bits: add half an ulp of the reduced mantissa less one,
        // plus the last kept bit, then cut the dropped bits.
        let shift = src_mantissa - mantissa;
        let last_bit = constant(body, 1 << shift);
        let bias = constant(body, (1 << (shift - 1)) - 1);
        let shift_amount = constant(body, u64::from(shift));
        let kept = op(body, "arith.andi", &value, &last_bit);
        let kept = op(body, "arith.shrui", &kept, &shift_amount);
        let rounding = op(body, "arith.addi", &kept, &bias);
        let truncation = constant(body, !((1u64 << shift) - 1));
        let rounded = op(body, "arith.addi", &value, &rounding);
        value = op(body, "arith.andi", &rounded, &truncation);
    }
    if exponent < src_exponent {
        let exponent_mask = constant(body, ((1 << src_exponent) - 1) << src_mantissa);
        let sign_mask = constant(body, 1 << (width - 1));
        let bias = (1u64 << (src_exponent - 1)) - 1;
        let reduced_bias = (1u64 << (exponent - 1)) - 1;
        let max_exponent = constant(body, (bias + reduced_bias) << src_mantissa);
        let min_exponent = constant(body, (bias - reduced_bias) << src_mantissa);
        let biased = op(body, "arith.andi", &value, &exponent_mask);
        let compare = |body: &mut Body, predicate: &str, bound: &Scalar| {
            body.op(
                "past",
                "i1",
                format!(
                    "arith.cmpi {predicate}, {}, {} : {int}",
                    biased.name, bound.name
                ),
            )
        };
        let overflows = compare(body, "ugt", &max_exponent);
        let underflows = compare(body, "ule", &min_exponent);
        let signed_zero = op(body, "arith.andi", &value, &sign_mask);
        let signed_infinity = op(body, "arith.ori", &signed_zero, &exponent_mask);
        let select = |body: &mut Body, c: &Scalar, t: &Scalar, f: &Scalar| {
            body.op(
                "bits",
                &int,
                format!("arith.select {}, {}, {} : {int}", c.name, t.name, f.name),
            )
        };
        let flushed = select(body, &underflows, &signed_zero, &value);
        value = select(body, &overflows, &signed_infinity, &flushed);
    }
    let result = body.op(
        "v",
        ty,
        format!("arith.bitcast {} : {int} to {ty}", value.name),
    );
    if mantissa == 0 {
        return Ok(result);
    }
    // A NaN's rounding may carry into its exponent or clear its mantissa: it stays as it was.
    let nan = body.op("nan", "i1", format!("arith.cmpf uno, {x}, {x} : {ty}"));
    Ok(body.op(
        "v",
        ty,
        format!("arith.select {}, {x}, {} : {ty}", nan.name, result.name),
    ))
}
