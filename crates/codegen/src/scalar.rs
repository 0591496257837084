//! The scalar semantics of HLO's elementwise ops as `arith` and `math` ops, with XLA's answers
//! where MLIR's differ or are undefined: integer division by zero gives -1 (all ones) and
//! remainder by zero gives the dividend, `MIN / -1` gives `MIN`, shifts by the bit width or more
//! give 0 (or the sign for arithmetic right shifts), float-to-integer conversion saturates and
//! sends NaN to 0. Half-precision transcendental functions are computed in f32.

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::reduce_precision::reduce_precision;
use super::types::{Class, Element};
use xla_indexing_hlo::Opcode;

/// A scalar value with its element type.
#[derive(Clone, Debug)]
pub struct Typed {
    pub value: Scalar,
    pub element: Element,
}

/// How many operands elementwise op `opcode` takes.
pub fn arity(opcode: Opcode) -> usize {
    match opcode {
        Opcode::Select | Opcode::Clamp => 3,
        Opcode::Add
        | Opcode::Subtract
        | Opcode::Multiply
        | Opcode::Divide
        | Opcode::Remainder
        | Opcode::Maximum
        | Opcode::Minimum
        | Opcode::Power
        | Opcode::Atan2
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::ShiftLeft
        | Opcode::ShiftRightArithmetic
        | Opcode::ShiftRightLogical
        | Opcode::Compare
        | Opcode::Complex
        | Opcode::Mulhi
        | Opcode::StochasticConvert => 2,
        _ => 1,
    }
}

/// The value of elementwise op `opcode` (with attributes read through `attr`) on `args` (as
/// many as [`arity`] says) of real element types, of element type `result`; `Err` says why the
/// op is not lowered.
pub fn elementwise(
    body: &mut Body,
    opcode: Opcode,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, CodegenError> {
    let a = &args[0];
    let ty = a.element.mlir;
    let e = a.element;
    let bin = |body: &mut Body, op: &str| {
        body.op(
            "v",
            ty,
            format!("{op} {}, {} : {ty}", a.value.name, args[1].value.name),
        )
    };
    let un = |body: &mut Body, op: &str| body.op("v", ty, format!("{op} {} : {ty}", a.value.name));
    Ok(match (opcode, e.class) {
        (Opcode::Copy, _) => a.value.clone(),
        (Opcode::Convert, _) => convert(body, a, result),
        (Opcode::BitcastConvert, _) if e.bits == result.bits => body.op(
            "v",
            result.mlir,
            format!("arith.bitcast {} : {ty} to {}", a.value.name, result.mlir),
        ),
        (Opcode::Compare, _) => compare(body, attr, a, &args[1])?,
        (Opcode::Select, _) => select(body, &a.value.name, &args[1], &args[2]).value,
        (Opcode::Clamp, _) => {
            let x = &args[1];
            let low = max(body, x, &args[0]);
            let low = Typed {
                value: low,
                element: x.element,
            };
            max_min(body, &low, &args[2], false)
        }
        (Opcode::Add, Class::Float) => bin(body, "arith.addf"),
        (Opcode::Subtract, Class::Float) => bin(body, "arith.subf"),
        (Opcode::Multiply, Class::Float) => bin(body, "arith.mulf"),
        (Opcode::Divide, Class::Float) => bin(body, "arith.divf"),
        (Opcode::Remainder, Class::Float) => bin(body, "arith.remf"),
        (Opcode::Add, _) => bin(body, "arith.addi"),
        (Opcode::Subtract, _) => bin(body, "arith.subi"),
        (Opcode::Multiply, _) => bin(body, "arith.muli"),
        (Opcode::And, Class::Pred | Class::Signed | Class::Unsigned) => bin(body, "arith.andi"),
        (Opcode::Or, Class::Pred | Class::Signed | Class::Unsigned) => bin(body, "arith.ori"),
        (Opcode::Xor, Class::Pred | Class::Signed | Class::Unsigned) => bin(body, "arith.xori"),
        (Opcode::Divide | Opcode::Remainder, _) => {
            integer_division(body, opcode == Opcode::Divide, a, &args[1])
        }
        (Opcode::Maximum, _) => max(body, a, &args[1]),
        (Opcode::Minimum, _) => max_min(body, a, &args[1], false),
        (
            Opcode::ShiftLeft | Opcode::ShiftRightArithmetic | Opcode::ShiftRightLogical,
            Class::Signed | Class::Unsigned,
        ) => shift(body, opcode, a, &args[1]),
        (Opcode::Not, Class::Pred | Class::Signed | Class::Unsigned) => {
            let ones = body.constant("-1", ty);
            body.op(
                "v",
                ty,
                format!("arith.xori {}, {} : {ty}", a.value.name, ones.name),
            )
        }
        (Opcode::Negate, Class::Float) => un(body, "arith.negf"),
        (Opcode::Negate, Class::Signed | Class::Unsigned) => {
            let zero = body.constant("0", ty);
            body.op(
                "v",
                ty,
                format!("arith.subi {}, {} : {ty}", zero.name, a.value.name),
            )
        }
        (Opcode::Abs, Class::Float) => un(body, "math.absf"),
        (Opcode::Abs, Class::Signed) => un(body, "math.absi"),
        (Opcode::Abs, Class::Unsigned) => a.value.clone(),
        (Opcode::Mulhi, Class::Signed | Class::Unsigned) => mulhi(body, a, &args[1]),
        (Opcode::Popcnt, Class::Signed | Class::Unsigned) => un(body, "math.ctpop"),
        (Opcode::CountLeadingZeros, Class::Signed | Class::Unsigned) => un(body, "math.ctlz"),
        (Opcode::Sign, Class::Float) => {
            // sign(x) = copysign(1, x), except that ±0 and NaN give themselves.
            let one = body.constant(&float_literal(1.0, e), ty);
            let signed = body.op(
                "v",
                ty,
                format!("math.copysign {}, {} : {ty}", one.name, a.value.name),
            );
            let zero = body.constant(&float_literal(0.0, e), ty);
            let keep = body.op(
                "v",
                "i1",
                format!("arith.cmpf ueq, {}, {} : {ty}", a.value.name, zero.name),
            );
            body.op(
                "v",
                ty,
                format!(
                    "arith.select {}, {}, {} : {ty}",
                    keep.name, a.value.name, signed.name
                ),
            )
        }
        (Opcode::Sign, Class::Signed) => {
            let zero = body.constant("0", ty);
            let pos = body.op(
                "v",
                "i1",
                format!("arith.cmpi sgt, {}, {} : {ty}", a.value.name, zero.name),
            );
            let neg = body.op(
                "v",
                "i1",
                format!("arith.cmpi slt, {}, {} : {ty}", a.value.name, zero.name),
            );
            let pos = body.op("v", ty, format!("arith.extui {} : i1 to {ty}", pos.name));
            let neg = body.op("v", ty, format!("arith.extui {} : i1 to {ty}", neg.name));
            body.op(
                "v",
                ty,
                format!("arith.subi {}, {} : {ty}", pos.name, neg.name),
            )
        }
        (Opcode::ReducePrecision, Class::Float) => reduce_precision(body, attr, &a.value, e)?,
        (Opcode::IsFinite, Class::Float) => {
            body.op("v", "i1", format!("math.isfinite {} : {ty}", a.value.name))
        }
        (op, Class::Float) => return transcendental(body, op, args),
        (opcode, _) => {
            return Err(CodegenError::NotLowered {
                opcode,
                element: e.mlir,
            });
        }
    })
}

/// `condition ? a : b` (`arith.select`) of two values of one type; `condition` is an `i1`.
pub fn select(body: &mut Body, condition: &str, a: &Typed, b: &Typed) -> Typed {
    let t = a.element.mlir;
    let value = body.op(
        "v",
        t,
        format!(
            "arith.select {condition}, {}, {} : {t}",
            a.value.name, b.value.name
        ),
    );
    Typed {
        value,
        element: a.element,
    }
}

/// `mulhi`: the high half of the double-width product of two integers of the same type,
/// signed or unsigned as the type is (`arith.mulsi_extended` or `arith.mului_extended`).
fn mulhi(body: &mut Body, a: &Typed, b: &Typed) -> Scalar {
    let ty = a.element.mlir;
    let op = if a.element.class == Class::Signed {
        "arith.mulsi_extended"
    } else {
        "arith.mului_extended"
    };
    let both = body.fresh("wide");
    body.line(format!(
        "{both}:2 = {op} {}, {} : {ty}",
        a.value.name, b.value.name
    ));
    Scalar::new(format!("{both}#1"), ty)
}

/// Float functions: in f32 for half-precision operands, then rounded back.
fn transcendental(body: &mut Body, opcode: Opcode, args: &[Typed]) -> Result<Scalar, CodegenError> {
    let e = args[0].element;
    let wide = if e.bits < 32 { "f32" } else { e.mlir };
    let widened: Vec<String> = args
        .iter()
        .map(|a| {
            if wide == e.mlir {
                a.value.name.clone()
            } else {
                body.op(
                    "v",
                    wide,
                    format!("arith.extf {} : {} to {wide}", a.value.name, e.mlir),
                )
                .name
            }
        })
        .collect();
    let x = &widened[0];
    let math = |body: &mut Body, op: &str| body.op("v", wide, format!("{op} {x} : {wide}"));
    let value = match opcode {
        Opcode::Exponential => math(body, "math.exp"),
        Opcode::ExponentialMinusOne => math(body, "math.expm1"),
        Opcode::Log => math(body, "math.log"),
        Opcode::LogPlusOne => math(body, "math.log1p"),
        Opcode::Sqrt => math(body, "math.sqrt"),
        Opcode::Rsqrt => math(body, "math.rsqrt"),
        Opcode::Cbrt => math(body, "math.cbrt"),
        Opcode::Tanh => math(body, "math.tanh"),
        Opcode::Tan => math(body, "math.tan"),
        Opcode::Sine => math(body, "math.sin"),
        Opcode::Cosine => math(body, "math.cos"),
        Opcode::Erf => math(body, "math.erf"),
        Opcode::Acos => math(body, "math.acos"),
        Opcode::Acosh => math(body, "math.acosh"),
        Opcode::Asin => math(body, "math.asin"),
        Opcode::Asinh => math(body, "math.asinh"),
        Opcode::Atan => math(body, "math.atan"),
        Opcode::Atanh => math(body, "math.atanh"),
        Opcode::Cosh => math(body, "math.cosh"),
        Opcode::Sinh => math(body, "math.sinh"),
        Opcode::Floor => math(body, "math.floor"),
        Opcode::Ceil => math(body, "math.ceil"),
        Opcode::RoundNearestEven => math(body, "math.roundeven"),
        Opcode::RoundNearestAfz => math(body, "math.round"),
        Opcode::Logistic => {
            // 1 / (1 + exp(-x))
            let neg = body.op("v", wide, format!("arith.negf {x} : {wide}"));
            let exp = body.op("v", wide, format!("math.exp {} : {wide}", neg.name));
            let one = body.constant("1.000000e+00", wide);
            let den = body.op(
                "v",
                wide,
                format!("arith.addf {}, {} : {wide}", one.name, exp.name),
            );
            body.op(
                "v",
                wide,
                format!("arith.divf {}, {} : {wide}", one.name, den.name),
            )
        }
        Opcode::Power => body.op("v", wide, format!("math.powf {x}, {} : {wide}", widened[1])),
        Opcode::Atan2 => body.op(
            "v",
            wide,
            format!("math.atan2 {x}, {} : {wide}", widened[1]),
        ),
        opcode => {
            return Err(CodegenError::NotLowered {
                opcode,
                element: e.mlir,
            });
        }
    };
    Ok(if wide == e.mlir {
        value
    } else {
        body.op(
            "v",
            e.mlir,
            format!("arith.truncf {} : {wide} to {}", value.name, e.mlir),
        )
    })
}

/// `maximum`: NaN-propagating for floats, by signedness for integers.
fn max(body: &mut Body, a: &Typed, b: &Typed) -> Scalar {
    max_min(body, a, b, true)
}

fn max_min(body: &mut Body, a: &Typed, b: &Typed, is_max: bool) -> Scalar {
    let ty = a.element.mlir;
    let op = match (a.element.class, is_max) {
        (Class::Float, true) => "arith.maximumf",
        (Class::Float, false) => "arith.minimumf",
        (Class::Signed, true) => "arith.maxsi",
        (Class::Signed, false) => "arith.minsi",
        (_, true) => "arith.maxui",
        (_, false) => "arith.minui",
    };
    body.op(
        "v",
        ty,
        format!("{op} {}, {} : {ty}", a.value.name, b.value.name),
    )
}

/// `compare` with `direction=EQ|NE|LT|LE|GT|GE`: ordered float predicates except NE, which is
/// unordered (NaN != x), as XLA compares.
fn compare(
    body: &mut Body,
    attr: &dyn Fn(&str) -> Option<String>,
    a: &Typed,
    b: &Typed,
) -> Result<Scalar, CodegenError> {
    let direction = attr("direction").ok_or(CodegenError::NoDirection)?;
    let ty = a.element.mlir;
    let (op, predicate) = match (a.element.class, direction.as_str()) {
        (Class::Float, "EQ") => ("arith.cmpf", "oeq"),
        (Class::Float, "NE") => ("arith.cmpf", "une"),
        (Class::Float, "LT") => ("arith.cmpf", "olt"),
        (Class::Float, "LE") => ("arith.cmpf", "ole"),
        (Class::Float, "GT") => ("arith.cmpf", "ogt"),
        (Class::Float, "GE") => ("arith.cmpf", "oge"),
        (_, "EQ") => ("arith.cmpi", "eq"),
        (_, "NE") => ("arith.cmpi", "ne"),
        (Class::Signed, "LT") => ("arith.cmpi", "slt"),
        (Class::Signed, "LE") => ("arith.cmpi", "sle"),
        (Class::Signed, "GT") => ("arith.cmpi", "sgt"),
        (Class::Signed, "GE") => ("arith.cmpi", "sge"),
        (_, "LT") => ("arith.cmpi", "ult"),
        (_, "LE") => ("arith.cmpi", "ule"),
        (_, "GT") => ("arith.cmpi", "ugt"),
        (_, "GE") => ("arith.cmpi", "uge"),
        (_, other) => return Err(CodegenError::Direction(other.to_string())),
    };
    Ok(body.op(
        "v",
        "i1",
        format!(
            "{op} {predicate}, {}, {} : {ty}",
            a.value.name, b.value.name
        ),
    ))
}

/// XLA's integer division and remainder: by zero, the quotient is all ones and the remainder
/// the dividend; `MIN / -1` is `MIN` with remainder 0. The divisor MLIR sees is never 0 (or -1
/// beside `MIN`), so no undefined division is executed.
fn integer_division(body: &mut Body, divide: bool, a: &Typed, b: &Typed) -> Scalar {
    let ty = a.element.mlir;
    let (x, y) = (&a.value.name, &b.value.name);
    let zero = body.constant("0", ty);
    let one = body.constant("1", ty);
    let ones = body.constant("-1", ty);
    let by_zero = body.op(
        "v",
        "i1",
        format!("arith.cmpi eq, {y}, {} : {ty}", zero.name),
    );
    let mut bad = by_zero.clone();
    let mut overflow = None;
    if a.element.is_signed() {
        let min = body.constant(&(i64::MIN >> (64 - a.element.bits)).to_string(), ty);
        let is_min = body.op(
            "v",
            "i1",
            format!("arith.cmpi eq, {x}, {} : {ty}", min.name),
        );
        let minus_one = body.op(
            "v",
            "i1",
            format!("arith.cmpi eq, {y}, {} : {ty}", ones.name),
        );
        let ovf = body.op(
            "v",
            "i1",
            format!("arith.andi {}, {} : i1", is_min.name, minus_one.name),
        );
        bad = body.op(
            "v",
            "i1",
            format!("arith.ori {}, {} : i1", by_zero.name, ovf.name),
        );
        overflow = Some((ovf, min));
    }
    let safe = body.op(
        "v",
        ty,
        format!("arith.select {}, {}, {y} : {ty}", bad.name, one.name),
    );
    let op = match (divide, a.element.is_signed()) {
        (true, true) => "arith.divsi",
        (true, false) => "arith.divui",
        (false, true) => "arith.remsi",
        (false, false) => "arith.remui",
    };
    let mut value = body.op("v", ty, format!("{op} {x}, {} : {ty}", safe.name));
    if let Some((ovf, min)) = overflow {
        let on_overflow = if divide { min.name } else { zero.name.clone() };
        value = body.op(
            "v",
            ty,
            format!(
                "arith.select {}, {on_overflow}, {} : {ty}",
                ovf.name, value.name
            ),
        );
    }
    let on_zero = if divide { ones.name } else { x.clone() };
    body.op(
        "v",
        ty,
        format!(
            "arith.select {}, {on_zero}, {} : {ty}",
            by_zero.name, value.name
        ),
    )
}

/// Shifts as XLA defines them for amounts of the bit width or more (unsigned comparison).
fn shift(body: &mut Body, opcode: Opcode, a: &Typed, b: &Typed) -> Scalar {
    let ty = a.element.mlir;
    let (x, y) = (&a.value.name, &b.value.name);
    let width = body.constant(&a.element.bits.to_string(), ty);
    let big = body.op(
        "v",
        "i1",
        format!("arith.cmpi uge, {y}, {} : {ty}", width.name),
    );
    if opcode == Opcode::ShiftRightArithmetic {
        let last = body.constant(&(a.element.bits - 1).to_string(), ty);
        let amount = body.op(
            "v",
            ty,
            format!("arith.select {}, {}, {y} : {ty}", big.name, last.name),
        );
        return body.op("v", ty, format!("arith.shrsi {x}, {} : {ty}", amount.name));
    }
    let op = if opcode == Opcode::ShiftLeft {
        "arith.shli"
    } else {
        "arith.shrui"
    };
    let shifted = body.op("v", ty, format!("{op} {x}, {y} : {ty}"));
    let zero = body.constant("0", ty);
    body.op(
        "v",
        ty,
        format!(
            "arith.select {}, {}, {} : {ty}",
            big.name, zero.name, shifted.name
        ),
    )
}

/// `convert`: float widths by extension or rounding; integers by sign or zero extension or
/// truncation; to pred by comparison with zero; floats to integers saturating, NaN to 0.
pub fn convert(body: &mut Body, a: &Typed, to: Element) -> Scalar {
    let from = a.element;
    let x = &a.value.name;
    let (f, t) = (from.mlir, to.mlir);
    if from == to {
        return a.value.clone();
    }
    // Narrow floats go through f32 both ways: each of their values is an f32 exactly, and
    // wider values round to f32 first (as ml_dtypes rounds them).
    let f32 = Element::of("f32").expect("f32 is lowered");
    let exact = match from.class {
        Class::Fp4 => Some(super::fp4::to_f32(body, x)),
        Class::Fp8(fp8) => Some(super::fp8::to_f32(body, fp8, x)),
        _ => None,
    };
    if let Some(value) = exact {
        let wide = Typed {
            value,
            element: f32,
        };
        return convert(body, &wide, to);
    }
    if matches!(to.class, Class::Fp4 | Class::Fp8(_)) {
        let wide = convert(body, a, f32);
        return match to.class {
            Class::Fp8(fp8) => super::fp8::from_f32(body, fp8, &wide.name),
            _ => super::fp4::from_f32(body, &wide.name),
        };
    }
    match (from.class, to.class) {
        (Class::Float, Class::Float) => {
            if from.bits == to.bits {
                let wide = body.op("v", "f32", format!("arith.extf {x} : {f} to f32"));
                body.op("v", t, format!("arith.truncf {} : f32 to {t}", wide.name))
            } else if from.bits < to.bits {
                body.op("v", t, format!("arith.extf {x} : {f} to {t}"))
            } else {
                body.op("v", t, format!("arith.truncf {x} : {f} to {t}"))
            }
        }
        (_, Class::Pred) => {
            let (op, predicate, zero) = if from.is_float() {
                (
                    "arith.cmpf",
                    "une",
                    body.constant(&float_literal(0.0, from), f),
                )
            } else {
                ("arith.cmpi", "ne", body.constant("0", f))
            };
            body.op(
                "v",
                "i1",
                format!("{op} {predicate}, {x}, {} : {f}", zero.name),
            )
        }
        (Class::Float, _) => float_to_integer(body, a, to),
        (_, Class::Float) => {
            let op = if from.is_signed() {
                "arith.sitofp"
            } else {
                "arith.uitofp"
            };
            body.op("v", t, format!("{op} {x} : {f} to {t}"))
        }
        _ if from.bits == to.bits => a.value.clone(),
        _ if from.bits < to.bits => {
            let op = if from.is_signed() {
                "arith.extsi"
            } else {
                "arith.extui"
            };
            body.op("v", t, format!("{op} {x} : {f} to {t}"))
        }
        _ => body.op("v", t, format!("arith.trunci {x} : {f} to {t}")),
    }
}

/// Saturating float-to-integer conversion: below the smallest value gives the smallest, at or
/// above the largest (as a float) gives the largest, NaN gives 0. The `fptosi`/`fptoui` result
/// is used only where it is defined.
fn float_to_integer(body: &mut Body, a: &Typed, to: Element) -> Scalar {
    let (f, t) = (a.element.mlir, to.mlir);
    let x = &a.value.name;
    let (lowest, highest): (i128, i128) = if to.is_signed() {
        (-(1i128 << (to.bits - 1)), (1i128 << (to.bits - 1)) - 1)
    } else {
        (0, (1i128 << to.bits) - 1)
    };
    let low_f = body.constant(&float_literal(lowest as f64, a.element), f);
    let high_f = body.constant(&float_literal(highest as f64, a.element), f);
    let clamped = body.op("v", f, format!("arith.maximumf {x}, {} : {f}", low_f.name));
    let clamped = body.op(
        "v",
        f,
        format!("arith.minimumf {}, {} : {f}", clamped.name, high_f.name),
    );
    let op = if to.is_signed() {
        "arith.fptosi"
    } else {
        "arith.fptoui"
    };
    let raw = body.op("v", t, format!("{op} {} : {f} to {t}", clamped.name));
    let too_big = body.op(
        "v",
        "i1",
        format!("arith.cmpf oge, {x}, {} : {f}", high_f.name),
    );
    // As a two's-complement literal of `to.bits` bits.
    let highest_literal = if to.is_signed() {
        highest.to_string()
    } else {
        "-1".to_string()
    };
    let high = body.constant(&highest_literal, t);
    let value = body.op(
        "v",
        t,
        format!(
            "arith.select {}, {}, {} : {t}",
            too_big.name, high.name, raw.name
        ),
    );
    let nan = body.op("v", "i1", format!("arith.cmpf uno, {x}, {x} : {f}"));
    let zero = body.constant("0", t);
    body.op(
        "v",
        t,
        format!(
            "arith.select {}, {}, {} : {t}",
            nan.name, zero.name, value.name
        ),
    )
}

/// The literal of zero (`false`, `+0.0`, the complex zero) of `element`.
pub(crate) fn zero_literal(element: Element) -> String {
    match element.class {
        Class::Float => float_literal(0.0, element),
        Class::Complex => {
            let part = element.part().mlir;
            format!("[0.0 : {part}, 0.0 : {part}]")
        }
        Class::Pred => "false".into(),
        _ => "0".into(),
    }
}

/// A float literal of type `e`: decimal for finite values (MLIR rounds it to the type), the
/// bit pattern for infinities and NaN.
pub fn float_literal(value: f64, e: Element) -> String {
    if value.is_finite() {
        let text = format!("{value:e}");
        return if text.contains('.') {
            text
        } else {
            text.replacen('e', ".0e", 1)
        };
    }
    // An infinity has every exponent bit set, a quiet NaN also the top mantissa bit; an
    // element that is no float of its own is written as `f64`.
    let (exponent, mantissa) = e.float_format().unwrap_or((11, 52));
    let inf = ((1u64 << exponent) - 1) << mantissa;
    let nan = inf | 1 << (mantissa - 1);
    let sign = 1u64 << (exponent + mantissa);
    let bits = if value.is_nan() {
        nan
    } else if value > 0.0 {
        inf
    } else {
        inf | sign
    };
    format!("0x{bits:X}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str) -> Element {
        Element::of(name).unwrap()
    }

    #[test]
    fn float_literals_parse_as_mlir_floats() {
        assert_eq!(float_literal(1.0, f("f32")), "1.0e0");
        assert_eq!(float_literal(-2.5, f("f32")), "-2.5e0");
        assert_eq!(float_literal(1e-7, f("f32")), "1.0e-7");
        assert_eq!(float_literal(f64::INFINITY, f("f32")), "0x7F800000");
        assert_eq!(float_literal(f64::NEG_INFINITY, f("f16")), "0xFC00");
        assert_eq!(float_literal(f64::NAN, f("bf16")), "0x7FC0");
    }
}
