//! `stochastic-convert`: a float rounded to a signed integer up or down at random, as XLA
//! defines it (and decomposes it before fusion): the fraction of `|x|` scaled by `2^w` (`w` the
//! random operand's bits; computed in `f32` for `f16` operands) and converted to the random
//! operand's unsigned type rounds `|x|` up where the random value is below it; the sign is put
//! back, and values at or beyond the integer type's ends give those ends.

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::scalar::{self, Typed, convert, float_literal, select};
use super::types::{Class, Element};
use xla_indexing_hlo::Opcode;

/// `stochastic-convert` of the float `x` with the unsigned random bits `random`, to the signed
/// integer type `result`.
pub fn stochastic_convert(
    body: &mut Body,
    result: Element,
    x: &Typed,
    random: &Typed,
) -> Result<Scalar, CodegenError> {
    let e = x.element;
    if e.class != Class::Float
        || random.element.class != Class::Unsigned
        || result.class != Class::Signed
    {
        return Err(CodegenError::NotLowered {
            opcode: Opcode::StochasticConvert,
            element: e.mlir,
        });
    }
    let op = |body: &mut Body, opcode: Opcode, to: Element, args: &[Typed]| {
        scalar::elementwise(body, opcode, &|_| None, to, args)
            .map(|value| Typed { value, element: to })
    };
    let compare = |body: &mut Body, direction: &str, a: &Typed, b: &Typed| {
        let direction = direction.to_string();
        let pred = Element::of("pred")?;
        let attr = move |key: &str| (key == "direction").then(|| direction.clone());
        scalar::elementwise(body, Opcode::Compare, &attr, pred, &[a.clone(), b.clone()])
    };
    let constant = |body: &mut Body, value: String, element: Element| Typed {
        value: body.constant(&value, element.mlir),
        element,
    };
    let sign = op(body, Opcode::Sign, e, std::slice::from_ref(x))?;
    let zero = constant(body, float_literal(0.0, e), e);
    let negative = compare(body, "LT", &sign, &zero)?;
    let magnitude = op(body, Opcode::Abs, e, std::slice::from_ref(x))?;
    let whole = op(body, Opcode::Floor, e, std::slice::from_ref(&magnitude))?;
    let mut fraction = op(body, Opcode::Subtract, e, &[magnitude, whole.clone()])?;
    // `2^16` is no `f16`: the fraction is scaled in `f32`.
    if e.mlir == "f16" {
        let f32 = Element::of("f32")?;
        fraction = Typed {
            value: convert(body, &fraction, f32),
            element: f32,
        };
    }
    let scale = constant(
        body,
        float_literal(2f64.powi(random.element.bits as i32), fraction.element),
        fraction.element,
    );
    let fixed = op(body, Opcode::Multiply, fraction.element, &[fraction, scale])?;
    let fixed = Typed {
        value: convert(body, &fixed, random.element),
        element: random.element,
    };
    let round_up = compare(body, "LT", random, &fixed)?;
    let truncated = Typed {
        value: convert(body, &whole, result),
        element: result,
    };
    let one = constant(body, "1".into(), result);
    let up = op(body, Opcode::Add, result, &[truncated.clone(), one])?;
    let rounded = select(body, &round_up.name, &up, &truncated);
    let negated = op(body, Opcode::Negate, result, std::slice::from_ref(&rounded))?;
    let signed = select(body, &negative.name, &negated, &rounded);
    // At or beyond the integer type's ends, those ends.
    let (min, max) = (
        -(1i128 << (result.bits - 1)),
        (1i128 << (result.bits - 1)) - 1,
    );
    // MLIR rounds the decimal to the float type (past `f16`'s range to an infinity), as XLA's
    // scalar of the operand's type holds the end.
    let low = constant(body, float_literal(min as f64, e), e);
    let high = constant(body, float_literal(max as f64, e), e);
    let at_min = compare(body, "LE", x, &low)?;
    let at_max = compare(body, "GE", x, &high)?;
    let min = constant(body, min.to_string(), result);
    let max = constant(body, max.to_string(), result);
    let clamped = select(body, &at_min.name, &min, &signed);
    Ok(select(body, &at_max.name, &max, &clamped).value)
}
