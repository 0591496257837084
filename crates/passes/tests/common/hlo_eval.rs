//! A brute-force evaluator of HLO computations on small arrays, written from XLA's operation
//! semantics (<https://openxla.org/xla/operation_semantics>) and independent of the indexing
//! maps and of the code generator: every instruction's whole result is computed from its
//! operands' whole results, element by element, in the order the semantics state them.
//!
//! Values are kept per element as `bool`, an integer (`i128`, always wrapped to the element
//! type and read signed or unsigned as the type says), a float (`f64`, always rounded to the
//! element type) or a complex number (two such floats, `hlo_complex.rs`), so that every op of a
//! narrower type is computed exactly and rounded once.
#![allow(dead_code)]

use super::hlo_complex;
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::{
    Module,
    attrs::AttrValue,
    module::{Computation, Instruction},
    shape::{ArrayShape, Shape},
};

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Pred,
    S(u32),
    U(u32),
    F16,
    Bf16,
    F32,
    F64,
    C64,
    C128,
    /// `f4e2m1fn`: `±{0, 0.5, 1, 1.5, 2, 3, 4, 6}`, no infinity or NaN.
    F4,
    /// An 8-bit float type.
    F8(F8),
}

/// An 8-bit float type: a sign, `7 - mantissa` exponent bits and `mantissa` bits, the
/// exponent biased by `bias`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct F8 {
    mantissa: u32,
    bias: i32,
    nan: F8Nan,
}

/// Which codes of an 8-bit float type are not finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F8Nan {
    /// The largest exponent: infinity with mantissa 0, else NaN (`f8e5m2`, `f8e4m3`, `f8e3m4`).
    Ieee,
    /// The all-ones code of either sign (`f8e4m3fn`).
    AllOnes,
    /// The code of negative zero (`...fnuz`).
    NegativeZero,
}

impl F8 {
    fn of(name: &str) -> Option<F8> {
        let (mantissa, bias, nan) = match name {
            "f8e5m2" => (2, 15, F8Nan::Ieee),
            "f8e4m3" => (3, 7, F8Nan::Ieee),
            "f8e3m4" => (4, 3, F8Nan::Ieee),
            "f8e4m3fn" => (3, 7, F8Nan::AllOnes),
            "f8e4m3fnuz" => (3, 8, F8Nan::NegativeZero),
            "f8e5m2fnuz" => (2, 16, F8Nan::NegativeZero),
            "f8e4m3b11fnuz" => (3, 11, F8Nan::NegativeZero),
            _ => return None,
        };
        Some(F8 {
            mantissa,
            bias,
            nan,
        })
    }

    /// The value of `code`, by the definition of the format.
    pub fn decode(self, code: u8) -> f64 {
        let m = self.mantissa;
        let magnitude = code & 0x7f;
        let (e, f) = (
            i32::from(magnitude >> m),
            f64::from(magnitude & ((1 << m) - 1)),
        );
        let top = i32::from(0x7f_u8 >> m);
        let special = match self.nan {
            F8Nan::Ieee if e == top => Some(if f == 0.0 { f64::INFINITY } else { f64::NAN }),
            F8Nan::AllOnes if magnitude == 0x7f => Some(f64::NAN),
            F8Nan::NegativeZero if code == 0x80 => Some(f64::NAN),
            _ => None,
        };
        let value = special.unwrap_or_else(|| {
            let significand = if e == 0 { f } else { f + f64::from(1u32 << m) };
            significand * 2f64.powi(e.max(1) - self.bias - m as i32)
        });
        if code & 0x80 != 0 { -value } else { value }
    }

    /// The code `x` rounds to, as ml_dtypes rounds: to `f32` first, then to the nearest value,
    /// ties to the even code; beyond the largest finite value (by more than half its spacing,
    /// or half with the largest code odd) to infinity, or NaN where there is none. Found by
    /// search over the codes.
    pub fn encode(self, x: f64) -> u8 {
        let x = x as f32 as f64;
        let m = self.mantissa;
        let nan = match self.nan {
            F8Nan::Ieee => (0x7f >> m << m) | 1 << (m - 1),
            F8Nan::AllOnes => 0x7f,
            F8Nan::NegativeZero => 0x80,
        };
        if x.is_nan() {
            return nan;
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let finite: Vec<u8> = (0..0x80).filter(|&c| self.decode(c).is_finite()).collect();
        let top = *finite.last().expect("finite codes");
        let spacing = self.decode(top) - self.decode(top - 1);
        // The value one past the largest: reaching it is overflow.
        let past = (top + 1, self.decode(top) + spacing);
        let a = x.abs();
        let mut best = (0u8, f64::INFINITY);
        for (c, v) in finite.iter().map(|&c| (c, self.decode(c))).chain([past]) {
            let d = (v - a).abs();
            if d < best.1 || (d == best.1 && c % 2 == 0) {
                best = (c, d);
            }
        }
        if a >= past.1 || best.0 > top {
            return match self.nan {
                F8Nan::Ieee => sign | 0x7f >> m << m,
                F8Nan::AllOnes => sign | 0x7f,
                F8Nan::NegativeZero => 0x80,
            };
        }
        match (self.nan, best.0) {
            (F8Nan::NegativeZero, 0) => 0,
            (_, c) => sign | c,
        }
    }
}

impl Ty {
    /// The element type XLA names `name`, `None` for the ones this evaluator does not know.
    pub fn of(name: &str) -> Option<Ty> {
        Some(match name {
            "pred" => Ty::Pred,
            "s4" => Ty::S(4),
            "f4e2m1fn" => Ty::F4,
            _ if name.starts_with("f8") => Ty::F8(F8::of(name)?),
            "u4" => Ty::U(4),
            "s8" => Ty::S(8),
            "s16" => Ty::S(16),
            "s32" => Ty::S(32),
            "s64" => Ty::S(64),
            "u8" => Ty::U(8),
            "u16" => Ty::U(16),
            "u32" => Ty::U(32),
            "u64" => Ty::U(64),
            "f16" => Ty::F16,
            "bf16" => Ty::Bf16,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "c64" => Ty::C64,
            "c128" => Ty::C128,
            _ => return None,
        })
    }

    /// Bits of one element (1 for pred, as MLIR's `i1`).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::S(b) | Ty::U(b) => b,
            Ty::F16 | Ty::Bf16 => 16,
            Ty::F4 => 4,
            Ty::F8(_) => 8,
            Ty::F32 => 32,
            Ty::F64 | Ty::C64 => 64,
            Ty::C128 => 128,
        }
    }

    pub fn is_complex(self) -> bool {
        matches!(self, Ty::C64 | Ty::C128)
    }

    /// The type of a complex type's parts; a real type itself.
    pub fn part(self) -> Ty {
        match self {
            Ty::C64 => Ty::F32,
            Ty::C128 => Ty::F64,
            t => t,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            Ty::F4 | Ty::F8(_) | Ty::F16 | Ty::Bf16 | Ty::F32 | Ty::F64
        )
    }

    /// The smallest and largest value of an integer type.
    fn int_range(self) -> (i128, i128) {
        match self {
            Ty::S(b) => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
            Ty::U(b) => (0, (1i128 << b) - 1),
            _ => (0, 1),
        }
    }

    /// `x` as a value of this type: integers wrap, floats round to nearest even.
    pub fn wrap_int(self, x: i128) -> V {
        match self {
            Ty::Pred => V::P(x & 1 == 1),
            Ty::S(b) => {
                let m = 1i128 << b;
                let mut r = x.rem_euclid(m);
                if r >= m / 2 {
                    r -= m;
                }
                V::I(r)
            }
            Ty::U(b) => V::I(x.rem_euclid(1i128 << b)),
            _ if self.is_complex() => V::C(self.round(x as f64), 0.0),
            _ => V::F(self.round(x as f64)),
        }
    }

    /// `x` rounded to this float type (nearest, ties to even; overflow to infinity).
    pub fn round(self, x: f64) -> f64 {
        match self {
            Ty::F64 | Ty::C128 => x,
            Ty::F32 | Ty::C64 => x as f32 as f64,
            Ty::F16 => round_to_format(x, 10, -14, 65504.0),
            Ty::Bf16 => round_to_format(x, 7, -126, 2f64.powi(128) - 2f64.powi(120)),
            Ty::F4 => round_to_fp4(x),
            Ty::F8(f8) => f8.decode(f8.encode(x)),
            _ => x,
        }
    }
}

/// The values of `f4e2m1fn`'s codes 0 to 7 (8 to 15 are their negatives).
const FP4: [f64; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// `x` rounded to the nearest `f4e2m1fn` value, ties to the even code, saturated to ±6 (as the
/// GPU's `satfinite` conversion); NaN becomes +0.
fn round_to_fp4(x: f64) -> f64 {
    if x.is_nan() {
        return 0.0;
    }
    let m = x.abs().min(6.0);
    let mut best = 0;
    for (k, &v) in FP4.iter().enumerate() {
        let (d, db) = ((v - m).abs(), (FP4[best] - m).abs());
        if d < db || (d == db && k % 2 == 0) {
            best = k;
        }
    }
    FP4[best].copysign(x)
}

/// `x` rounded to a binary format with `mantissa` fraction bits, smallest normal exponent
/// `min_exp` and largest finite value `max`.
fn round_to_format(x: f64, mantissa: i32, min_exp: i32, max: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let exp = (((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023).max(min_exp);
    let quantum = 2f64.powi(exp - mantissa);
    let r = (x / quantum).round_ties_even() * quantum;
    // The largest finite value plus half a quantum (of its binade) rounds to infinity.
    let half = 2f64.powi(((max.to_bits() >> 52) & 0x7ff) as i32 - 1023 - mantissa - 1);
    if r.abs() > max || x.abs() >= max + half {
        f64::INFINITY.copysign(x)
    } else {
        r
    }
}

/// One element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V {
    P(bool),
    I(i128),
    F(f64),
    /// A complex number's real and imaginary parts.
    C(f64, f64),
}

impl V {
    pub fn int(self) -> i128 {
        match self {
            V::P(b) => b as i128,
            V::I(i) => i,
            V::F(f) | V::C(f, _) => f as i128,
        }
    }

    pub fn float(self) -> f64 {
        match self {
            V::P(b) => b as i128 as f64,
            V::I(i) => i as f64,
            V::F(f) | V::C(f, _) => f,
        }
    }

    pub fn pred(self) -> bool {
        match self {
            V::P(b) => b,
            V::I(i) => i != 0,
            V::F(f) => f != 0.0,
            V::C(a, b) => a != 0.0 || b != 0.0,
        }
    }

    /// The parts of `v` as a complex number (a real value's imaginary part is 0).
    pub fn complex(self) -> (f64, f64) {
        match self {
            V::C(a, b) => (a, b),
            v => (v.float(), 0.0),
        }
    }
}

/// The bit patterns of `v` as an element of type `ty`, as the checked programs print it: one
/// word, or of a complex value its real and imaginary parts'.
pub fn to_words(ty: Ty, v: V) -> Vec<u64> {
    if !ty.is_complex() {
        return vec![to_bits(ty, v)];
    }
    let (a, b) = v.complex();
    vec![to_bits(ty.part(), V::F(a)), to_bits(ty.part(), V::F(b))]
}

/// The element of type `ty` whose words ([`to_words`]) are `words`.
pub fn from_words(ty: Ty, words: &[u64]) -> V {
    match (ty.is_complex(), words) {
        (true, [a, b, ..]) => V::C(
            from_bits(ty.part(), *a).float(),
            from_bits(ty.part(), *b).float(),
        ),
        _ => from_bits(ty, words[0]),
    }
}

/// How many words [`to_words`] gives for an element of type `ty`.
pub fn words(ty: Ty) -> usize {
    if ty.is_complex() { 2 } else { 1 }
}

/// The bit pattern of `v` as an element of type `ty` (of a complex type, its real part's).
pub fn to_bits(ty: Ty, v: V) -> u64 {
    match ty {
        Ty::C64 | Ty::C128 => to_bits(ty.part(), V::F(v.float())),
        Ty::Pred => v.pred() as u64,
        Ty::S(b) | Ty::U(b) => {
            let m = if b == 64 { u64::MAX } else { (1u64 << b) - 1 };
            (v.int() as u64) & m
        }
        Ty::F64 => v.float().to_bits(),
        Ty::F32 => (v.float() as f32).to_bits() as u64,
        Ty::F16 => encode_small(v.float(), 10, 5) as u64,
        Ty::Bf16 => ((v.float() as f32).to_bits() >> 16) as u64,
        Ty::F4 => {
            let x = v.float();
            let k = FP4.iter().position(|&f| f == x.abs()).unwrap_or(0) as u64;
            k | (u64::from(x.is_sign_negative()) << 3)
        }
        Ty::F8(f8) => u64::from(f8.encode(v.float())),
    }
}

/// The element of type `ty` whose bit pattern is `bits`.
pub fn from_bits(ty: Ty, bits: u64) -> V {
    match ty {
        Ty::Pred => V::P(bits & 1 == 1),
        Ty::S(b) => ty.wrap_int(bits as i128 & ((1i128 << b) - 1)),
        Ty::U(b) => V::I(bits as i128 & ((1i128 << b) - 1)),
        Ty::F64 => V::F(f64::from_bits(bits)),
        Ty::F32 => V::F(f32::from_bits(bits as u32) as f64),
        Ty::Bf16 => V::F(f32::from_bits((bits as u32) << 16) as f64),
        Ty::F16 => V::F(decode_small(bits as u16, 10, 5)),
        Ty::F4 => {
            let v = FP4[(bits & 7) as usize];
            V::F(if bits & 8 != 0 { -v } else { v })
        }
        Ty::F8(f8) => V::F(f8.decode(bits as u8)),
        Ty::C64 | Ty::C128 => V::C(from_bits(ty.part(), bits).float(), 0.0),
    }
}

/// The bits of an exactly representable value in a binary16-like format.
fn encode_small(x: f64, mantissa: u32, exponent: u32) -> u16 {
    let sign = (x.is_sign_negative() as u16) << (mantissa + exponent);
    let bias = (1i32 << (exponent - 1)) - 1;
    let all = (1u16 << exponent) - 1;
    if x.is_nan() {
        return sign | (all << mantissa) | (1 << (mantissa - 1));
    }
    if x.is_infinite() {
        return sign | (all << mantissa);
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let e = (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(1 - bias);
    let frac = a / 2f64.powi(e - mantissa as i32);
    let biased = if a < 2f64.powi(1 - bias) {
        0
    } else {
        (e + bias) as u16
    };
    let m = (frac as u64 as u16) & ((1 << mantissa) - 1);
    sign | (biased << mantissa) | m
}

fn decode_small(bits: u16, mantissa: u32, exponent: u32) -> f64 {
    let sign = if bits >> (mantissa + exponent) & 1 == 1 {
        -1.0
    } else {
        1.0
    };
    let bias = (1i32 << (exponent - 1)) - 1;
    let e = ((bits >> mantissa) & ((1 << exponent) - 1)) as i32;
    let m = (bits & ((1 << mantissa) - 1)) as f64;
    if e == (1 << exponent) - 1 {
        return if m == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if e == 0 {
        return sign * m * 2f64.powi(1 - bias - mantissa as i32);
    }
    sign * (1.0 + m / 2f64.powi(mantissa as i32)) * 2f64.powi(e - bias)
}

/// An array value: its element type, dimensions and elements in row-major order.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub ty: Ty,
    pub dims: Vec<i64>,
    pub data: Vec<V>,
}

impl Array {
    pub fn scalar(ty: Ty, v: V) -> Array {
        Array {
            ty,
            dims: Vec::new(),
            data: vec![v],
        }
    }

    /// The array of type `ty` and dimensions `dims` whose element at `index` is `f(index)`.
    pub fn build(
        ty: Ty,
        dims: &[i64],
        mut f: impl FnMut(&[i64]) -> Result<V, String>,
    ) -> Result<Array, String> {
        let mut data = Vec::with_capacity(element_count(dims));
        for index in Indices::new(dims) {
            data.push(f(&index)?);
        }
        Ok(Array {
            ty,
            dims: dims.to_vec(),
            data,
        })
    }

    pub fn at(&self, index: &[i64]) -> V {
        self.data[linear(&self.dims, index) as usize]
    }
}

/// One computed result: its value and whether a function computed to within rounding (a
/// transcendental one) went into it.
#[derive(Clone, Debug)]
pub struct Output {
    pub array: Array,
    pub approximate: bool,
}

/// The number of elements of an array of dimensions `dims`.
pub fn element_count(dims: &[i64]) -> usize {
    dims.iter().product::<i64>() as usize
}

/// Row-major linear number of `index`.
pub fn linear(dims: &[i64], index: &[i64]) -> i64 {
    index.iter().zip(dims).fold(0, |acc, (&x, &d)| acc * d + x)
}

/// The row-major index of linear number `l`.
pub fn delinear(dims: &[i64], mut l: i64) -> Vec<i64> {
    let mut out = vec![0; dims.len()];
    for k in (0..dims.len()).rev() {
        out[k] = l % dims[k];
        l /= dims[k];
    }
    out
}

/// The position in memory of element `index` of an array stored with layout `minor_to_major`:
/// the most major dimension varies slowest.
pub fn physical_offset(dims: &[i64], minor_to_major: &[usize], index: &[i64]) -> i64 {
    minor_to_major
        .iter()
        .rev()
        .fold(0, |acc, &d| acc * dims[d] + index[d])
}

/// The element stored at memory position `offset` under layout `minor_to_major`.
pub fn physical_index(dims: &[i64], minor_to_major: &[usize], mut offset: i64) -> Vec<i64> {
    let mut out = vec![0; dims.len()];
    for &d in minor_to_major {
        out[d] = offset % dims[d];
        offset /= dims[d];
    }
    out
}

/// Every index of an array, row-major.
pub struct Indices {
    dims: Vec<i64>,
    next: Option<Vec<i64>>,
}

impl Indices {
    pub fn new(dims: &[i64]) -> Indices {
        let empty = dims.contains(&0);
        Indices {
            dims: dims.to_vec(),
            next: (!empty).then(|| vec![0; dims.len()]),
        }
    }
}

impl Iterator for Indices {
    type Item = Vec<i64>;

    fn next(&mut self) -> Option<Vec<i64>> {
        let current = self.next.take()?;
        let mut n = current.clone();
        let mut k = self.dims.len();
        loop {
            if k == 0 {
                break;
            }
            k -= 1;
            n[k] += 1;
            if n[k] < self.dims[k] {
                self.next = Some(n);
                break;
            }
            n[k] = 0;
        }
        Some(current)
    }
}

/// The layout of an array shape (`{1,0}` when none is written).
pub fn minor_to_major(shape: &ArrayShape) -> Vec<usize> {
    shape.layout.as_ref().map_or_else(
        || (0..shape.dims.len()).rev().collect(),
        |l| l.minor_to_major.clone(),
    )
}

/// The element type of an array shape.
pub fn ty_of(shape: &ArrayShape) -> Result<Ty, String> {
    Ty::of(&shape.element).ok_or_else(|| format!("element type {} is not evaluated", shape.element))
}

/// Ops whose result is computed to within rounding only (the reference and the kernel may
/// differ in the last bits).
const APPROXIMATE: &[Opcode] = &[
    Opcode::Exponential,
    Opcode::ExponentialMinusOne,
    Opcode::Log,
    Opcode::LogPlusOne,
    Opcode::Tanh,
    Opcode::Rsqrt,
    Opcode::Logistic,
    Opcode::Power,
    Opcode::Atan2,
    Opcode::Sine,
    Opcode::Cosine,
    Opcode::Tan,
    Opcode::Erf,
    Opcode::Cbrt,
    Opcode::Acos,
    Opcode::Acosh,
    Opcode::Asin,
    Opcode::Asinh,
    Opcode::Atan,
    Opcode::Atanh,
    Opcode::Cosh,
    Opcode::Sinh,
];

/// A computed instruction: an array, or the arrays of a tuple.
#[derive(Clone, Debug)]
enum Value {
    Array(Array),
    Tuple(Vec<Array>),
}

/// Evaluates computation `c` of `module` on `params` (in parameter order) and returns its
/// result leaves.
pub fn evaluate(module: &Module, c: usize, params: &[Array]) -> Result<Vec<Output>, String> {
    let comp = &module.computations[c];
    let mut values: Vec<Option<(Value, bool)>> = vec![None; comp.instructions.len()];
    for &i in &comp.post_order {
        let instr = &comp.instructions[i];
        let complex_operand = instr.operands.iter().any(|&o| {
            comp.instructions[o]
                .array()
                .is_some_and(|s| matches!(s.element.as_str(), "c64" | "c128"))
        });
        let approximate = APPROXIMATE.contains(&instr.opcode)
            || (complex_operand && hlo_complex::APPROXIMATE.contains(&instr.opcode))
            || instr
                .operands
                .iter()
                .any(|&o| values[o].as_ref().is_some_and(|v| v.1))
            || ["to_apply", "calls"]
                .iter()
                .flat_map(|k| instr.called(k))
                .any(|name| {
                    module
                        .computation(name)
                        .is_some_and(|c| calls_approximate(module, c))
                });
        let value = if instr.opcode == Opcode::GetTupleElement {
            let index = instr
                .int("index")
                .ok_or("get-tuple-element without an index")?;
            match &values[instr.operands[0]] {
                Some((Value::Tuple(leaves), _)) => Value::Array(
                    leaves
                        .get(index as usize)
                        .cloned()
                        .ok_or_else(|| format!("{}: no leaf {index}", instr.name))?,
                ),
                _ => return Err(format!("{}: not a tuple", instr.name)),
            }
        } else if let Shape::Tuple(leaves) = &instr.shape
            && [Opcode::Reduce, Opcode::Scatter].contains(&instr.opcode)
        {
            let operands = array_operands(instr, &values)?;
            let evaluated = if instr.opcode == Opcode::Reduce {
                variadic_reduce(module, instr, &operands)
            } else {
                scatter(module, instr, &operands).and_then(|r| shaped_as(leaves, r))
            };
            Value::Tuple(evaluated.map_err(|e| format!("{}: {e}", instr.name))?)
        } else if instr.opcode == Opcode::CustomCall
            && raw(instr, "custom_call_target") == Some("\"PadToStatic\"")
        {
            let operands = array_operands(instr, &values)?;
            Value::Tuple(
                pad_to_static(instr, &operands).map_err(|e| format!("{}: {e}", instr.name))?,
            )
        } else if instr.opcode == Opcode::Tuple {
            let mut leaves = Vec::new();
            for &o in &instr.operands {
                match &values[o] {
                    Some((Value::Array(a), _)) => leaves.push(a.clone()),
                    // The root's leaves, through a nested tuple of results.
                    Some((Value::Tuple(inner), _)) if i == comp.root => {
                        leaves.extend(inner.iter().cloned());
                    }
                    _ => return Err(format!("{}: nested tuples are not evaluated", instr.name)),
                }
            }
            Value::Tuple(leaves)
        } else {
            let operands = array_operands(instr, &values)?;
            Value::Array(
                instruction(module, comp, instr, &operands, params)
                    .map_err(|e| format!("{}: {e}", instr.name))?,
            )
        };
        values[i] = Some((value, approximate));
    }
    match values[comp.root].take() {
        Some((Value::Array(a), approximate)) => Ok(vec![Output {
            array: a,
            approximate,
        }]),
        Some((Value::Tuple(leaves), approximate)) => {
            let root = &comp.instructions[comp.root];
            // Per leaf, whether the operand it comes from is approximate (a variadic reduce
            // root is one operand's leaves).
            let per_leaf: Vec<bool> = if root.opcode == Opcode::Tuple {
                root.operands
                    .iter()
                    .flat_map(|&o| match &values[o] {
                        Some((Value::Tuple(inner), a)) => vec![*a; inner.len()],
                        other => vec![other.as_ref().is_some_and(|v| v.1)],
                    })
                    .collect()
            } else {
                vec![approximate; leaves.len()]
            };
            Ok(leaves
                .into_iter()
                .zip(per_leaf)
                .map(|(array, approximate)| Output { array, approximate })
                .collect())
        }
        None => Err(format!("the root of {} was not computed", comp.name)),
    }
}

/// The arrays `instr`'s operands computed to (an error names a tuple among them).
fn array_operands<'v>(
    instr: &Instruction,
    values: &'v [Option<(Value, bool)>],
) -> Result<Vec<&'v Array>, String> {
    instr
        .operands
        .iter()
        .map(|&o| match &values[o] {
            Some((Value::Array(a), _)) => Ok(a),
            _ => Err(format!("{}: tuple operands are not evaluated", instr.name)),
        })
        .collect()
}

/// Whether computation `c` holds an approximate op.
fn calls_approximate(module: &Module, c: usize) -> bool {
    module.computations[c].instructions.iter().any(|i| {
        APPROXIMATE.contains(&i.opcode)
            || ["to_apply", "calls"]
                .iter()
                .flat_map(|k| i.called(k))
                .filter_map(|n| module.computation(n))
                .any(|callee| callee != c && calls_approximate(module, callee))
    })
}

/// A `reduce` of several inputs (argmax): per output element, the reducer applied to the
/// accumulators and the inputs' elements, in row-major order of the reduced dimensions.
fn variadic_reduce(
    module: &Module,
    instr: &Instruction,
    operands: &[&Array],
) -> Result<Vec<Array>, String> {
    let n = operands.len() / 2;
    let (inputs, inits) = operands.split_at(n);
    let reduced = int_list(instr, "dimensions")?;
    let dims = &inputs[0].dims;
    let kept: Vec<usize> = (0..dims.len())
        .filter(|k| !reduced.contains(&(*k as i64)))
        .collect();
    let out_dims: Vec<i64> = kept.iter().map(|&k| dims[k]).collect();
    let red_dims: Vec<i64> = reduced.iter().map(|&k| dims[k as usize]).collect();
    let tys: Vec<Ty> = inputs.iter().chain(inits).map(|a| a.ty).collect();
    let mut data: Vec<Vec<V>> = vec![Vec::new(); n];
    for i in Indices::new(&out_dims) {
        let mut acc: Vec<V> = inits.iter().map(|a| a.data[0]).collect();
        for r in Indices::new(&red_dims) {
            let mut src = vec![0; dims.len()];
            for (j, &k) in kept.iter().enumerate() {
                src[k] = i[j];
            }
            for (j, &k) in reduced.iter().enumerate() {
                src[k as usize] = r[j];
            }
            let args: Vec<V> = acc
                .iter()
                .copied()
                .chain(inputs.iter().map(|a| a.at(&src)))
                .collect();
            acc = apply_all(module, instr, &args, &tys)?;
        }
        for (d, v) in data.iter_mut().zip(acc) {
            d.push(v);
        }
    }
    Ok(inits
        .iter()
        .zip(data)
        .map(|(init, data)| Array {
            ty: init.ty,
            dims: out_dims.clone(),
            data,
        })
        .collect())
}

/// `to_apply` of `instr` applied to scalars: every leaf of its result.
fn apply_all(
    module: &Module,
    instr: &Instruction,
    args: &[V],
    tys: &[Ty],
) -> Result<Vec<V>, String> {
    let [callee] = instr.called("to_apply") else {
        return Err("no to_apply".into());
    };
    let c = module
        .computation(callee)
        .ok_or_else(|| format!("unknown computation {callee}"))?;
    let params: Vec<Array> = args
        .iter()
        .zip(tys)
        .map(|(&v, &ty)| Array::scalar(ty, v))
        .collect();
    Ok(evaluate(module, c, &params)?
        .into_iter()
        .map(|o| o.array.data[0])
        .collect())
}

/// `to_apply` of `instr` applied to scalars: its first result.
fn apply(module: &Module, instr: &Instruction, args: &[V], tys: &[Ty]) -> Result<V, String> {
    apply_all(module, instr, args, tys)?
        .first()
        .copied()
        .ok_or_else(|| "the reducer returns nothing".to_string())
}

fn int_list<'a>(instr: &'a Instruction, key: &str) -> Result<&'a [i64], String> {
    match instr.attr(key) {
        Some(AttrValue::Ints(v)) => Ok(v),
        None => Ok(&[]),
        _ => Err(format!("attribute {key} is not a list")),
    }
}

fn raw<'a>(instr: &'a Instruction, key: &str) -> Option<&'a str> {
    match instr.attr(key) {
        Some(AttrValue::Raw(v)) => Some(v),
        _ => None,
    }
}

/// The value of one instruction from its operands' values.
fn instruction(
    module: &Module,
    comp: &Computation,
    instr: &Instruction,
    operands: &[&Array],
    params: &[Array],
) -> Result<Array, String> {
    let Shape::Array(shape) = &instr.shape else {
        return Err("tuple-shaped results are not evaluated".into());
    };
    let ty = ty_of(shape)?;
    let dims = shape.dims.clone();
    let op = instr.opcode;
    match op {
        Opcode::Parameter => {
            let n = instr.parameter_number.ok_or("parameter without a number")?;
            let p = params
                .get(n)
                .ok_or_else(|| format!("no value for parameter {n}"))?;
            // A dynamic array's dimensions are its sizes, within the bounds.
            let sizes_fit = p.dims.len() == dims.len()
                && p.dims.iter().zip(&dims).zip(&shape.dynamic).all(
                    |((&size, &bound), &dynamic)| {
                        size == bound || (dynamic && (0..bound).contains(&size))
                    },
                );
            if !sizes_fit || p.ty != ty {
                return Err(format!("parameter {n} has the wrong shape"));
            }
            Ok(p.clone())
        }
        Opcode::Constant => {
            let text = instr.literal.as_deref().unwrap_or("").trim();
            if dims.is_empty() {
                return Ok(Array::scalar(ty, parse_literal(text, ty)?));
            }
            // `{{1, 2}, {3, 4}}`, `{(1, 0), (0, 1)}`: the elements in row-major order.
            let flat: String = text.chars().filter(|c| !matches!(c, '{' | '}')).collect();
            let mut elements = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (k, ch) in flat.char_indices() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        elements.push(parse_literal(flat[start..k].trim(), ty)?);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            elements.push(parse_literal(flat[start..].trim(), ty)?);
            if elements.len() != element_count(&dims) {
                return Err(format!("constant `{text}` does not have {dims:?} elements"));
            }
            Ok(Array {
                ty,
                dims,
                data: elements,
            })
        }
        Opcode::Iota => {
            let d = instr
                .int("iota_dimension")
                .ok_or("iota without iota_dimension")? as usize;
            Array::build(ty, &dims, |i| Ok(ty.wrap_int(i[d] as i128)))
        }
        Opcode::Broadcast => {
            let map = int_list(instr, "dimensions")?;
            let a = operands[0];
            Array::build(ty, &dims, |i| {
                let src: Vec<i64> = map.iter().map(|&k| i[k as usize]).collect();
                Ok(a.at(&src))
            })
        }
        Opcode::Transpose => {
            let perm = int_list(instr, "dimensions")?;
            let a = operands[0];
            Array::build(ty, &dims, |i| {
                let mut src = vec![0; i.len()];
                for (k, &p) in perm.iter().enumerate() {
                    src[p as usize] = i[k];
                }
                Ok(a.at(&src))
            })
        }
        Opcode::Reshape => {
            let a = operands[0];
            Array::build(ty, &dims, |i| Ok(a.data[linear(&dims, i) as usize]))
        }
        Opcode::Bitcast => {
            // The same bytes read through another shape and layout.
            let a = operands[0];
            let from = comp.instructions[instr.operands[0]]
                .array()
                .ok_or("bitcast of a tuple")?;
            let (out_layout, in_layout) = (minor_to_major(shape), minor_to_major(from));
            Array::build(ty, &dims, |i| {
                let offset = physical_offset(&dims, &out_layout, i);
                Ok(a.at(&physical_index(&a.dims, &in_layout, offset)))
            })
        }
        Opcode::Copy => Ok(operands[0].clone()),
        Opcode::Reverse => {
            let rev = int_list(instr, "dimensions")?;
            let a = operands[0];
            Array::build(ty, &dims, |i| {
                let src: Vec<i64> = (0..i.len())
                    .map(|k| {
                        if rev.contains(&(k as i64)) {
                            dims[k] - 1 - i[k]
                        } else {
                            i[k]
                        }
                    })
                    .collect();
                Ok(a.at(&src))
            })
        }
        Opcode::Slice => {
            let Some(AttrValue::Slice(spec)) = instr.attr("slice") else {
                return Err("slice without slice=".into());
            };
            let a = operands[0];
            Array::build(ty, &dims, |i| {
                let src: Vec<i64> = spec
                    .iter()
                    .zip(i)
                    .map(|(s, &o)| s.start + o * s.stride)
                    .collect();
                Ok(a.at(&src))
            })
        }
        Opcode::Pad => {
            let Some(AttrValue::Padding(spec)) = instr.attr("padding") else {
                return Err("pad without padding=".into());
            };
            let (a, value) = (operands[0], operands[1].data[0]);
            Array::build(ty, &dims, |i| {
                let mut src = Vec::new();
                for (k, p) in spec.iter().enumerate() {
                    // Position i[k] of the result is element q of the operand when
                    // i[k] = low + q * (interior + 1) with 0 <= q < n.
                    let from_low = i[k] - p.low;
                    let step = p.interior + 1;
                    if from_low < 0 || from_low % step != 0 || from_low / step >= a.dims[k] {
                        return Ok(value);
                    }
                    src.push(from_low / step);
                }
                Ok(a.at(&src))
            })
        }
        Opcode::Concatenate => {
            let k = *int_list(instr, "dimensions")?
                .first()
                .ok_or("no dimension")? as usize;
            Array::build(ty, &dims, |i| {
                let mut offset = 0;
                for a in operands {
                    if i[k] < offset + a.dims[k] {
                        let mut src = i.to_vec();
                        src[k] -= offset;
                        return Ok(a.at(&src));
                    }
                    offset += a.dims[k];
                }
                Err("index beyond the operands".into())
            })
        }
        Opcode::DynamicSlice => {
            let a = operands[0];
            // Start indices are clamped so that the slice lies within the operand.
            let starts: Vec<i64> = (0..dims.len())
                .map(|k| (operands[1 + k].data[0].int() as i64).clamp(0, a.dims[k] - dims[k]))
                .collect();
            Array::build(ty, &dims, |i| {
                let src: Vec<i64> = i.iter().zip(&starts).map(|(x, s)| x + s).collect();
                Ok(a.at(&src))
            })
        }
        Opcode::DynamicUpdateSlice => {
            let (a, u) = (operands[0], operands[1]);
            let starts: Vec<i64> = (0..dims.len())
                .map(|k| (operands[2 + k].data[0].int() as i64).clamp(0, a.dims[k] - u.dims[k]))
                .collect();
            Array::build(ty, &dims, |i| {
                let src: Vec<i64> = i.iter().zip(&starts).map(|(x, s)| x - s).collect();
                if src.iter().zip(&u.dims).all(|(x, n)| (0..*n).contains(x)) {
                    Ok(u.at(&src))
                } else {
                    Ok(a.at(i))
                }
            })
        }
        Opcode::Reduce => {
            if operands.len() != 2 {
                return Err("variadic reductions are not evaluated".into());
            }
            let (a, init) = (operands[0], operands[1].data[0]);
            let reduced = int_list(instr, "dimensions")?;
            let kept: Vec<usize> = (0..a.dims.len())
                .filter(|k| !reduced.contains(&(*k as i64)))
                .collect();
            let red_dims: Vec<i64> = reduced.iter().map(|&k| a.dims[k as usize]).collect();
            let tys = [a.ty, a.ty];
            Array::build(ty, &dims, |i| {
                let mut acc = init;
                for r in Indices::new(&red_dims) {
                    let mut src = vec![0; a.dims.len()];
                    for (j, &k) in kept.iter().enumerate() {
                        src[k] = i[j];
                    }
                    for (j, &k) in reduced.iter().enumerate() {
                        src[k as usize] = r[j];
                    }
                    acc = apply(module, instr, &[acc, a.at(&src)], &tys)?;
                }
                Ok(acc)
            })
        }
        Opcode::ReduceWindow => {
            if operands.len() != 2 {
                return Err("variadic reductions are not evaluated".into());
            }
            let Some(AttrValue::Window(window)) = instr.attr("window") else {
                return Err("reduce-window without window=".into());
            };
            let (a, init) = (operands[0], operands[1].data[0]);
            let sizes: Vec<i64> = window.iter().map(|w| w.size).collect();
            let tys = [a.ty, a.ty];
            Array::build(ty, &dims, |i| {
                let mut acc = init;
                // Window positions that fall on padding or between base-dilated elements are
                // skipped, as XLA's evaluator and emitters skip them.
                'window: for w in Indices::new(&sizes) {
                    let mut src = Vec::new();
                    for (k, d) in window.iter().enumerate() {
                        let p = i[k] * d.stride + w[k] * d.rhs_dilate - d.pad_low;
                        if p < 0 || p % d.lhs_dilate != 0 || p / d.lhs_dilate >= a.dims[k] {
                            continue 'window;
                        }
                        src.push(p / d.lhs_dilate);
                    }
                    acc = apply(module, instr, &[acc, a.at(&src)], &tys)?;
                }
                Ok(acc)
            })
        }
        Opcode::Dot => dot(instr, ty, &dims, operands[0], operands[1]),
        Opcode::Scatter => {
            let leaves = std::slice::from_ref(&instr.shape);
            Ok(shaped_as(leaves, scatter(module, instr, operands)?)?.remove(0))
        }
        _ => elementwise(instr, op, ty, &dims, operands),
    }
}

/// `dot`: result dimensions are the batch dimensions, then the lhs's and the rhs's free ones;
/// each element is the sum over the contracting dimensions (in row-major order) of the
/// products, in the result type.
fn dot(instr: &Instruction, ty: Ty, dims: &[i64], l: &Array, r: &Array) -> Result<Array, String> {
    let (lb, rb) = (
        int_list(instr, "lhs_batch_dims")?,
        int_list(instr, "rhs_batch_dims")?,
    );
    let (lc, rc) = (
        int_list(instr, "lhs_contracting_dims")?,
        int_list(instr, "rhs_contracting_dims")?,
    );
    let free = |rank: usize, b: &[i64], c: &[i64]| -> Vec<usize> {
        (0..rank)
            .filter(|k| !b.contains(&(*k as i64)) && !c.contains(&(*k as i64)))
            .collect()
    };
    let (lf, rf) = (free(l.dims.len(), lb, lc), free(r.dims.len(), rb, rc));
    let csizes: Vec<i64> = lc.iter().map(|&k| l.dims[k as usize]).collect();
    Array::build(ty, dims, |out| {
        let mut li = vec![0; l.dims.len()];
        let mut ri = vec![0; r.dims.len()];
        for (k, (&a, &b)) in lb.iter().zip(rb).enumerate() {
            li[a as usize] = out[k];
            ri[b as usize] = out[k];
        }
        for (k, &a) in lf.iter().enumerate() {
            li[a] = out[lb.len() + k];
        }
        for (k, &b) in rf.iter().enumerate() {
            ri[b] = out[lb.len() + lf.len() + k];
        }
        let mut acc = if ty.is_float() { V::F(0.0) } else { V::I(0) };
        for c in Indices::new(&csizes) {
            for (k, (&a, &b)) in lc.iter().zip(rc).enumerate() {
                li[a as usize] = c[k];
                ri[b as usize] = c[k];
            }
            let x = convert(l.ty, ty, l.at(&li));
            let y = convert(r.ty, ty, r.at(&ri));
            let p = binary(Opcode::Multiply, ty, x, y)?;
            acc = binary(Opcode::Add, ty, acc, p)?;
        }
        Ok(acc)
    })
}

/// `scatter` of `N` operands: a copy of the operands into which every update element, in
/// row-major order of the updates, is combined by `to_apply` (the `N` current elements, then
/// the `N` updates' elements, giving the `N` new ones) at `start + window`. The update's
/// scatter dimensions (those not in `update_window_dims`) pick the index vector from the
/// indices (the whole of `index_vector_dim`, or one element where it is the indices' rank);
/// component `k` starts operand dimension `scatter_dims_to_operand_dims[k]`, and each of
/// `input_batching_dims` starts at the update's coordinate of the paired
/// `scatter_indices_batching_dims` dimension. The window walks the operand dimensions that are
/// neither in `inserted_window_dims` nor batching ones, in order, by the `update_window_dims`.
/// As XLA does, an update whose whole window does not fit in the operands at its start
/// (inserted and batching dimensions have windows of 1) is dropped, not clamped.
fn scatter(
    module: &Module,
    instr: &Instruction,
    operands: &[&Array],
) -> Result<Vec<Array>, String> {
    let n = operands.len() / 2;
    if n == 0 || operands.len() != 2 * n + 1 {
        return Err(format!("{} operands are no scatter's", operands.len()));
    }
    let (inputs, updates) = (&operands[..n], &operands[n + 1..]);
    let indices = operands[n];
    let dims = &inputs[0].dims;
    if inputs.iter().any(|a| &a.dims != dims) || updates.iter().any(|u| u.dims != updates[0].dims) {
        return Err("the operands, or the updates, differ in shape".into());
    }
    let updates_dims = &updates[0].dims;
    let window_dims = int_list(instr, "update_window_dims")?;
    let inserted = int_list(instr, "inserted_window_dims")?;
    let to_operand = int_list(instr, "scatter_dims_to_operand_dims")?;
    let batching = int_list(instr, "input_batching_dims")?;
    let indices_batching = int_list(instr, "scatter_indices_batching_dims")?;
    let ivd = instr.int("index_vector_dim").ok_or("no index_vector_dim")? as usize;
    let rank = dims.len();
    let vector = match ivd.cmp(&indices.dims.len()) {
        std::cmp::Ordering::Less => indices.dims[ivd],
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => return Err(format!("index_vector_dim={ivd}")),
    };
    // The update dimensions of the scatter position: the indices' dimensions but the index
    // vector's, in order.
    let scatter_dims: Vec<usize> = (0..updates_dims.len())
        .filter(|d| !window_dims.contains(&(*d as i64)))
        .collect();
    // The operand dimensions the window walks, in order of `update_window_dims`.
    let walked: Vec<usize> = (0..rank)
        .filter(|d| !inserted.contains(&(*d as i64)) && !batching.contains(&(*d as i64)))
        .collect();
    let in_range = |list: &[i64], n: usize| list.iter().all(|&d| (0..n as i64).contains(&d));
    if walked.len() != window_dims.len()
        || scatter_dims.len() + usize::from(ivd < indices.dims.len()) != indices.dims.len()
        || to_operand.len() as i64 != vector
        || batching.len() != indices_batching.len()
        || indices_batching.contains(&(ivd as i64))
        || !in_range(window_dims, updates_dims.len())
        || !in_range(to_operand, rank)
        || !in_range(batching, rank)
        || !in_range(indices_batching, indices.dims.len())
    {
        return Err("the dimension numbers do not fit the shapes".into());
    }
    let mut window_size = vec![1; rank];
    for (&d, &u) in walked.iter().zip(window_dims) {
        window_size[d] = updates_dims[u as usize];
    }
    let mut results: Vec<Array> = inputs.iter().map(|&a| a.clone()).collect();
    let tys: Vec<Ty> = inputs.iter().chain(updates).map(|a| a.ty).collect();
    for u in Indices::new(updates_dims) {
        let position: Vec<i64> = scatter_dims.iter().map(|&d| u[d]).collect();
        let mut start = vec![0i128; rank];
        for (k, &d) in to_operand.iter().enumerate() {
            let mut at = position.clone();
            if ivd < indices.dims.len() {
                at.insert(ivd, k as i64);
            }
            start[d as usize] = indices.at(&at).int();
        }
        for (&d, &i) in batching.iter().zip(indices_batching) {
            let i = i as usize;
            start[d as usize] = position[i - usize::from(i > ivd)] as i128;
        }
        let fits = (0..rank).all(|d| (0..=(dims[d] - window_size[d]) as i128).contains(&start[d]));
        if !fits {
            continue;
        }
        let mut full: Vec<i64> = start.iter().map(|&s| s as i64).collect();
        for (&d, &w) in walked.iter().zip(window_dims) {
            full[d] += u[w as usize];
        }
        let at = linear(dims, &full) as usize;
        let args: Vec<V> = results
            .iter()
            .map(|r| r.data[at])
            .chain(updates.iter().map(|a| a.at(&u)))
            .collect();
        let new = apply_all(module, instr, &args, &tys)?;
        if new.len() != n {
            return Err(format!(
                "to_apply gives {} values for {n} operands",
                new.len()
            ));
        }
        for (r, v) in results.iter_mut().zip(new) {
            r.data[at] = v;
        }
    }
    Ok(results)
}

/// XLA's `PadToStatic` of a dynamic array (`operands[0]`, whose dimensions are its dynamic
/// sizes): the array in its bound shape (leaf 0 of `instr`'s shape), each element within the
/// sizes the array's element and every other zero, then each size as an `s32`.
fn pad_to_static(instr: &Instruction, operands: &[&Array]) -> Result<Vec<Array>, String> {
    let [input] = operands else {
        return Err("PadToStatic takes one operand".into());
    };
    let Some(bound) = instr.shape.leaves().first().copied() else {
        return Err("PadToStatic without an array result".into());
    };
    let zero = convert(Ty::S(32), input.ty, V::I(0));
    let padded = Array::build(input.ty, &bound.dims, |index| {
        let within = index.iter().zip(&input.dims).all(|(i, size)| i < size);
        Ok(if within { input.at(index) } else { zero })
    })?;
    let sizes = input
        .dims
        .iter()
        .map(|&size| Array::scalar(Ty::S(32), V::I(i128::from(size))));
    Ok(std::iter::once(padded).chain(sizes).collect())
}

/// `results` where each has the type and dimensions of its leaf of `shape`.
fn shaped_as(leaves: &[Shape], results: Vec<Array>) -> Result<Vec<Array>, String> {
    let fits = leaves.len() == results.len()
        && leaves.iter().zip(&results).all(|(leaf, r)| match leaf {
            Shape::Array(s) => ty_of(s).is_ok_and(|ty| ty == r.ty) && s.dims == r.dims,
            Shape::Tuple(_) => false,
        });
    if !fits {
        return Err("the result does not have the operands' shapes".into());
    }
    Ok(results)
}

/// The value of a scalar literal of type `ty` written `text`.
fn parse_literal(text: &str, ty: Ty) -> Result<V, String> {
    let bad = || format!("constant `{text}` is not a scalar of {ty:?}");
    Ok(match ty {
        Ty::Pred => match text {
            "true" | "1" => V::P(true),
            "false" | "0" => V::P(false),
            _ => return Err(bad()),
        },
        _ if ty.is_complex() => {
            let (re, im) = text
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .and_then(|t| t.split_once(','))
                .ok_or_else(bad)?;
            let part = |t: &str| parse_literal(t.trim(), ty.part()).map(V::float);
            V::C(part(re)?, part(im)?)
        }
        _ if ty.is_float() => V::F(ty.round(match text {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            t => t.parse().map_err(|_| bad())?,
        })),
        _ => {
            let v: i128 = text.parse().map_err(|_| bad())?;
            let (lo, hi) = ty.int_range();
            if v < lo || v > hi {
                return Err(bad());
            }
            V::I(v)
        }
    })
}

/// XLA's `convert` from `from` to `to`: to pred, `x != 0`; floats to integers round toward
/// zero and saturate, NaN gives 0; integers wrap; floats round to nearest even.
pub fn convert(from: Ty, to: Ty, v: V) -> V {
    if to == Ty::Pred {
        return V::P(v.pred());
    }
    if to.is_complex() {
        let (a, b) = if from.is_float() || from.is_complex() {
            v.complex()
        } else {
            (v.int() as f64, 0.0)
        };
        return V::C(to.round(a), to.round(b));
    }
    if to.is_float() {
        return V::F(to.round(v.float()));
    }
    if from.is_float() {
        let f = v.float();
        if f.is_nan() {
            return V::I(0);
        }
        let (lo, hi) = to.int_range();
        let t = f.trunc();
        return V::I(if t <= lo as f64 {
            lo
        } else if t >= hi as f64 {
            hi
        } else {
            t as i128
        });
    }
    to.wrap_int(v.int())
}

/// An elementwise op.
fn elementwise(
    instr: &Instruction,
    op: Opcode,
    ty: Ty,
    dims: &[i64],
    operands: &[&Array],
) -> Result<Array, String> {
    let at = |a: &Array, i: &[i64]| {
        if a.dims.is_empty() {
            a.data[0]
        } else {
            a.at(i)
        }
    };
    let direction = raw(instr, "direction");
    Array::build(ty, dims, |i| {
        let args: Vec<V> = operands.iter().map(|a| at(a, i)).collect();
        let in_ty = operands.first().map_or(ty, |a| a.ty);
        match (op, args.as_slice()) {
            (Opcode::Convert, [x]) => Ok(convert(in_ty, ty, *x)),
            (Opcode::BitcastConvert, [x]) if in_ty.bits() == ty.bits() => {
                Ok(from_bits(ty, to_bits(in_ty, *x)))
            }
            (Opcode::Compare, [x, y]) => Ok(V::P(compare(
                direction.ok_or("no direction")?,
                in_ty,
                *x,
                *y,
            )?)),
            (Opcode::ReducePrecision, [x]) => {
                let bits = |key: &str| -> Result<u32, String> {
                    raw(instr, key)
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| format!("reduce-precision without {key}="))
                };
                let (e, m) = (bits("exponent_bits")?, bits("mantissa_bits")?);
                reduce_precision(x.float(), ty, e, m).map(V::F)
            }
            (Opcode::StochasticConvert, [x, r]) => {
                stochastic_convert(x.float(), in_ty, r.int(), operands[1].ty, ty)
            }
            (Opcode::Select, [p, x, y]) => Ok(if p.pred() { *x } else { *y }),
            (Opcode::Clamp, [lo, x, hi]) => {
                let low = binary(Opcode::Maximum, ty, *x, *lo)?;
                binary(Opcode::Minimum, ty, low, *hi)
            }
            (_, [x]) => unary(op, ty, *x),
            (_, [x, y]) => binary(op, ty, *x, *y),
            _ => Err(format!(
                "{op} with {} operands is not evaluated",
                args.len()
            )),
        }
    })
}

fn compare(direction: &str, ty: Ty, x: V, y: V) -> Result<bool, String> {
    use std::cmp::Ordering::*;
    if ty.is_complex() {
        return hlo_complex::compare(direction, x.complex(), y.complex())
            .ok_or_else(|| format!("comparison {direction} of complex values"));
    }
    let order = if ty.is_float() {
        x.float().partial_cmp(&y.float())
    } else {
        Some(x.int().cmp(&y.int()))
    };
    Ok(match direction {
        // NaN compares unequal to everything, ordered comparisons with NaN are false.
        "EQ" => order == Some(Equal),
        "NE" => order != Some(Equal),
        "LT" => order == Some(Less),
        "LE" => matches!(order, Some(Less | Equal)),
        "GT" => order == Some(Greater),
        "GE" => matches!(order, Some(Greater | Equal)),
        d => return Err(format!("comparison direction {d}")),
    })
}

/// A complex result `z` as a value of type `ty` (a real type takes the real part).
fn complex_result(ty: Ty, (a, b): (f64, f64)) -> V {
    if ty.is_complex() {
        V::C(ty.round(a), ty.round(b))
    } else {
        V::F(ty.round(a))
    }
}

fn unary(op: Opcode, ty: Ty, x: V) -> Result<V, String> {
    if let V::C(..) = x {
        return hlo_complex::unary(op, x.complex())
            .map(|z| complex_result(ty, z))
            .ok_or_else(|| format!("{op} of complex values is not evaluated"));
    }
    if ty.is_float() {
        let f = x.float();
        let r = match op {
            Opcode::Negate => -f,
            Opcode::Abs => f.abs(),
            Opcode::Exponential => f.exp(),
            Opcode::ExponentialMinusOne => f.exp_m1(),
            Opcode::Log => f.ln(),
            Opcode::LogPlusOne => f.ln_1p(),
            Opcode::Tanh => f.tanh(),
            Opcode::Sqrt => f.sqrt(),
            Opcode::Rsqrt => 1.0 / f.sqrt(),
            Opcode::Logistic => 1.0 / (1.0 + (-f).exp()),
            Opcode::Floor => f.floor(),
            Opcode::Ceil => f.ceil(),
            Opcode::Sine => f.sin(),
            Opcode::Cosine => f.cos(),
            Opcode::Acos => f.acos(),
            Opcode::Acosh => f.acosh(),
            Opcode::Asin => f.asin(),
            Opcode::Asinh => f.asinh(),
            Opcode::Atan => f.atan(),
            Opcode::Atanh => f.atanh(),
            Opcode::Cosh => f.cosh(),
            Opcode::Sinh => f.sinh(),
            Opcode::Copy | Opcode::Real => f,
            Opcode::Imag => 0.0,
            _ => return Err(format!("{op} of {ty:?} is not evaluated")),
        };
        return Ok(V::F(ty.round(r)));
    }
    match (op, ty) {
        (Opcode::Not, Ty::Pred) => Ok(V::P(!x.pred())),
        (Opcode::Not, _) => Ok(ty.wrap_int(!x.int())),
        (Opcode::Negate, _) => Ok(ty.wrap_int(-x.int())),
        (Opcode::Abs, _) => Ok(ty.wrap_int(x.int().abs())),
        (Opcode::Copy, _) => Ok(x),
        _ => Err(format!("{op} of {ty:?} is not evaluated")),
    }
}

/// `reduce-precision` of `x`, a value of the float type `ty`, computed on values (the
/// kernels compute it on bits): `x` rounded to `mantissa` fraction bits (nearest, ties to
/// even) in its own binade (a subnormal of `ty` in the smallest normal's), then, where
/// `exponent` is fewer bits than `ty` has, past the largest finite exponent of `exponent` bits
/// an infinity and below the smallest normal a zero, of `x`'s sign. NaN with no mantissa bits
/// is not evaluated.
fn reduce_precision(x: f64, ty: Ty, exponent: u32, mantissa: u32) -> Result<f64, String> {
    let (src_exponent, src_mantissa) = match ty {
        Ty::F16 => (5, 10),
        Ty::Bf16 => (8, 7),
        Ty::F32 => (8, 23),
        Ty::F64 => (11, 52),
        _ => return Err(format!("reduce-precision of {ty:?} is not evaluated")),
    };
    if x.is_nan() && mantissa == 0 {
        return Err("reduce-precision to no mantissa bits of NaN is not evaluated".into());
    }
    if !x.is_finite() || x == 0.0 {
        return Ok(x);
    }
    let binade = |v: f64| ((v.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let src_bias = (1 << (src_exponent - 1)) - 1;
    let m = mantissa.min(src_mantissa) as i32;
    let e = binade(x).max(1 - src_bias);
    let quantum = 2f64.powi(e - m);
    let t = x.abs() / quantum;
    // Ties go to the even last kept bit: the mantissa's, or with no mantissa bits (a normal `x`
    // between two powers of two) the biased exponent's.
    let k = if m == 0 && t == 1.5 {
        if (e + src_bias) % 2 == 0 { 1.0 } else { 2.0 }
    } else {
        t.round_ties_even()
    };
    let r = (k * quantum).copysign(x);
    let reduced = exponent < src_exponent;
    let bias = if reduced {
        (1 << (exponent - 1)) - 1
    } else {
        src_bias
    };
    Ok(if r != 0.0 && binade(r) > bias {
        f64::INFINITY.copysign(x)
    } else if reduced && binade(r) < 1 - bias {
        0f64.copysign(x)
    } else {
        r
    })
}

/// `stochastic-convert` of `x` (of the float type `from`) with the random bits `r` (of the
/// unsigned type `random`) to the signed integer type `to`, as XLA's decomposition defines it:
/// at or beyond `to`'s ends (as `from` holds them) those ends; NaN 0; else `|x|` rounded down,
/// and up where `r` is below its fraction times `2^w` (`w` the bits of `random`, truncated to
/// an integer), with `x`'s sign.
fn stochastic_convert(x: f64, from: Ty, r: i128, random: Ty, to: Ty) -> Result<V, String> {
    let (Ty::S(_), Ty::U(w)) = (to, random) else {
        return Err(format!(
            "stochastic-convert to {to:?} with {random:?} is not evaluated"
        ));
    };
    let (lo, hi) = to.int_range();
    if x >= from.round(hi as f64) {
        return Ok(V::I(hi));
    }
    if x <= from.round(lo as f64) {
        return Ok(V::I(lo));
    }
    if x.is_nan() {
        return Ok(V::I(0));
    }
    let magnitude = x.abs();
    let whole = magnitude.floor();
    // The fraction times a power of two is exact in the type (in `f32` for `f16`).
    let fixed = ((magnitude - whole) * 2f64.powi(w as i32)).trunc() as i128;
    let fixed = fixed.min((1i128 << w) - 1);
    let rounded = whole as i128 + i128::from(r < fixed);
    Ok(to.wrap_int(if x < 0.0 { -rounded } else { rounded }))
}

/// IEEE maximum/minimum: NaN propagates, -0 is below +0.
fn float_max_min(a: f64, b: f64, max: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == 0.0 && b == 0.0 {
        let either_negative = a.is_sign_negative() || b.is_sign_negative();
        let both_negative = a.is_sign_negative() && b.is_sign_negative();
        let negative = if max { both_negative } else { either_negative };
        return if negative { -0.0 } else { 0.0 };
    }
    if (a > b) == max { a } else { b }
}

fn binary(op: Opcode, ty: Ty, x: V, y: V) -> Result<V, String> {
    if op == Opcode::Complex {
        return Ok(complex_result(ty, (x.float(), y.float())));
    }
    if ty.is_complex() {
        return hlo_complex::binary(op, x.complex(), y.complex())
            .map(|z| complex_result(ty, z))
            .ok_or_else(|| format!("{op} of complex values is not evaluated"));
    }
    if ty.is_float() {
        let (a, b) = (x.float(), y.float());
        let r = match op {
            Opcode::Add => a + b,
            Opcode::Subtract => a - b,
            Opcode::Multiply => a * b,
            Opcode::Divide => a / b,
            Opcode::Remainder => a % b,
            Opcode::Maximum => float_max_min(a, b, true),
            Opcode::Minimum => float_max_min(a, b, false),
            Opcode::Power => a.powf(b),
            Opcode::Atan2 => a.atan2(b),
            _ => return Err(format!("{op} of {ty:?} is not evaluated")),
        };
        return Ok(V::F(ty.round(r)));
    }
    if ty == Ty::Pred {
        let (a, b) = (x.pred(), y.pred());
        return Ok(V::P(match op {
            Opcode::And | Opcode::Minimum | Opcode::Multiply => a && b,
            Opcode::Or | Opcode::Maximum | Opcode::Add => a || b,
            Opcode::Xor => a ^ b,
            _ => return Err(format!("{op} of pred is not evaluated")),
        }));
    }
    let (a, b) = (x.int(), y.int());
    let bits = ty.bits();
    let unsigned_bits = |v: i128| v.rem_euclid(1i128 << bits);
    let (lo, _) = ty.int_range();
    Ok(ty.wrap_int(match op {
        Opcode::Add => a + b,
        Opcode::Subtract => a - b,
        Opcode::Multiply => a * b,
        // XLA: x / 0 is -1 (all ones), x % 0 is x; MIN / -1 is MIN and MIN % -1 is 0. The
        // quotient rounds toward zero and the remainder has the dividend's sign.
        Opcode::Divide if b == 0 => -1,
        Opcode::Remainder if b == 0 => a,
        Opcode::Divide if matches!(ty, Ty::S(_)) && a == lo && b == -1 => lo,
        Opcode::Remainder if matches!(ty, Ty::S(_)) && a == lo && b == -1 => 0,
        Opcode::Divide => a / b,
        Opcode::Remainder => a % b,
        Opcode::Maximum => a.max(b),
        Opcode::Minimum => a.min(b),
        Opcode::And => a & b,
        Opcode::Or => a | b,
        Opcode::Xor => a ^ b,
        // The high half of the double-width product (an i128 holds the product of two 64-bit
        // values); unsigned types read their bits unsigned.
        Opcode::Mulhi => (a * b) >> bits,
        // Shift amounts are read unsigned; at or beyond the width, logical shifts give 0 and
        // the arithmetic one the sign.
        Opcode::ShiftLeft => {
            let s = unsigned_bits(b);
            if s >= bits as i128 { 0 } else { a << s }
        }
        Opcode::ShiftRightLogical => {
            let s = unsigned_bits(b);
            if s >= bits as i128 {
                0
            } else {
                unsigned_bits(a) >> s
            }
        }
        Opcode::ShiftRightArithmetic => {
            let s = unsigned_bits(b).min(bits as i128 - 1);
            // The pattern read signed, whatever the type's signedness.
            let signed = Ty::S(bits).wrap_int(a).int();
            signed >> s
        }
        _ => return Err(format!("{op} of {ty:?} is not evaluated")),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding_and_bits() {
        let h = Ty::F16;
        assert_eq!(h.round(1.0 + 2f64.powi(-11)), 1.0);
        assert_eq!(h.round(1.0 + 3.0 * 2f64.powi(-11)), 1.0 + 2f64.powi(-9));
        assert_eq!(h.round(65519.0), 65504.0);
        assert_eq!(h.round(65520.0), f64::INFINITY);
        assert_eq!(h.round(2f64.powi(-25)), 0.0);
        assert_eq!(h.round(3.0 * 2f64.powi(-26)), 2f64.powi(-24));
        for bits in [
            0u64, 1, 0x3c00, 0x7bff, 0x8001, 0xfc00, 0x3555, 0x0400, 0x03ff,
        ] {
            assert_eq!(to_bits(h, from_bits(h, bits)), bits, "{bits:#x}");
        }
    }

    /// `reduce-precision` as XLA computes it (`jax.lax.reduce_precision`, in
    /// `crates/passes/tests/data/reduce_precision_jax.txt`, written by
    /// `reduce_precision_generate.py` beside it).
    #[test]
    fn reduce_precision_as_xla() {
        let golden = include_str!("../data/reduce_precision_jax.txt");
        let mut checked = 0;
        for line in golden.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(' ').collect();
            let ty = Ty::of(f[0]).unwrap();
            let (e, m): (u32, u32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
            let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
            let (x, want) = (from_bits(ty, hex(f[3])), from_bits(ty, hex(f[4])));
            let got = reduce_precision(x.float(), ty, e, m).unwrap();
            let same = (got.is_nan() && want.float().is_nan())
                || to_bits(ty, V::F(got)) == to_bits(ty, want);
            assert!(same, "{line}: {got:e} (want {:e})", want.float());
            checked += 1;
        }
        assert!(checked > 10_000, "{checked} lines");
    }

    /// The 8-bit float types decode and round as ml_dtypes does
    /// (`crates/codegen/tests/data/fp8_ml_dtypes.txt`, written by `fp8_generate.py` beside it).
    #[test]
    fn f8_as_ml_dtypes() {
        let golden = include_str!("../../../codegen/tests/data/fp8_ml_dtypes.txt");
        let (mut ty, mut checked) = (None, 0);
        for line in golden.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(' ').collect();
            let f8 = |ty: Option<Ty>| match ty {
                Some(Ty::F8(f8)) => f8,
                other => panic!("{other:?}"),
            };
            match fields[0] {
                "type" => ty = Ty::of(fields[1]),
                "decode" => {
                    for (code, word) in fields[1..].iter().enumerate() {
                        let want = f32::from_bits(u32::from_str_radix(word, 16).unwrap());
                        let got = f8(ty).decode(code as u8);
                        assert!(
                            got as f32 == want || (got.is_nan() && want.is_nan()),
                            "{ty:?} code {code}: {got} for {want}"
                        );
                        checked += 1;
                    }
                }
                source => {
                    let x = match source {
                        "f32" => f32::from_bits(u32::from_str_radix(fields[1], 16).unwrap()) as f64,
                        _ => f64::from_bits(u64::from_str_radix(fields[1], 16).unwrap()),
                    };
                    let want: u8 = fields[2].parse().unwrap();
                    let f8 = f8(ty);
                    let got = f8.encode(x);
                    assert!(
                        got == want || (f8.decode(got).is_nan() && f8.decode(want).is_nan()),
                        "{ty:?} {line}: {got:#x}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10000, "{checked}");
    }
}
