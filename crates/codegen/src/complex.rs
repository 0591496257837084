//! HLO's elementwise ops on complex numbers (`c64`, `c128`) with XLA's formulas (its elemental
//! emitter's): a complex value is one `complex<f32>` (or `complex<f64>`) SSA value, taken apart
//! with `complex.re` and `complex.im` and put together with `complex.create`; the arithmetic is
//! on its parts, through the float lowering of `scalar.rs`. Only those three ops and
//! `complex.constant` reach the lowering, which turns them into LLVM struct operations.
//!
//! `abs` is the scaled hypotenuse `max · sqrt(1 + (min / max)²)`, division is Smith's algorithm
//! with XLA's answers for zero and infinite operands, `sqrt` and `rsqrt` go through the polar
//! form, `power` is `|a|^c · e^(-d·arg a) · (cos q + i sin q)` with XLA's special cases.

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::scalar::{Typed, convert, elementwise as real_elementwise};
use super::types::Element;
use xla_indexing_hlo::Opcode;

/// The value of elementwise op `opcode` where an operand or the result is complex (and of
/// `real` and `imag` of any float), of element type `result`; `Err` says why it is not
/// lowered.
pub fn elementwise(
    body: &mut Body,
    opcode: Opcode,
    attr: &dyn Fn(&str) -> Option<String>,
    result: Element,
    args: &[Typed],
) -> Result<Scalar, CodegenError> {
    let a = &args[0];
    let mut f = Parts {
        body,
        e: a.element.part(),
        error: None,
    };
    // The value, or why it is not lowered; a float op the lowering refused is in `f.error`.
    let value: Result<Scalar, CodegenError> = 'value: {
        let not_lowered = || CodegenError::NotLowered {
            opcode,
            element: a.element.mlir,
        };
        if !a.element.is_complex() {
            // Real operands: `complex(re, im)`, `real`, `imag`, `convert` to a complex type.
            break 'value match opcode {
                Opcode::Complex => Ok(f.create(&a.value.name, &args[1].value.name)),
                Opcode::Real => Ok(a.value.clone()),
                Opcode::Imag => {
                    let zero = f.c(0.0);
                    Ok(Scalar::new(zero, a.element.mlir))
                }
                Opcode::Convert => {
                    let part = convert(f.body, a, result.part());
                    f.e = result.part();
                    let zero = f.c(0.0);
                    Ok(f.create(&part.name, &zero))
                }
                _ => Err(not_lowered()),
            };
        }
        let (x, y) = f.parts(&a.value.name);
        let other = args.get(1).map(|b| f.parts(&b.value.name));
        let value = match (opcode, other) {
            (Opcode::Copy, _) => break 'value Ok(a.value.clone()),
            (Opcode::Real, _) => break 'value Ok(Scalar::new(x, f.e.mlir)),
            (Opcode::Imag, _) => break 'value Ok(Scalar::new(y, f.e.mlir)),
            (Opcode::Abs, _) => break 'value Ok(Scalar::new(f.abs(&x, &y), f.e.mlir)),
            (Opcode::Convert, _) if result.is_complex() => {
                let part = |f: &mut Parts, v: &str| {
                    let v = Typed {
                        value: Scalar::new(v, f.e.mlir),
                        element: f.e,
                    };
                    convert(f.body, &v, result.part()).name
                };
                let (re, im) = (part(&mut f, &x), part(&mut f, &y));
                f.e = result.part();
                (re, im)
            }
            (Opcode::Negate, _) => (f.op(Opcode::Negate, &[&x]), f.op(Opcode::Negate, &[&y])),
            (Opcode::Add | Opcode::Subtract, Some((u, v))) => {
                (f.op(opcode, &[&x, &u]), f.op(opcode, &[&y, &v]))
            }
            (Opcode::Multiply, Some((u, v))) => f.multiply((&x, &y), (&u, &v)),
            (Opcode::Divide, Some((u, v))) => f.divide((&x, &y), (&u, &v)),
            (Opcode::Power, Some((u, v))) => f.power((&x, &y), (&u, &v)),
            (Opcode::Compare, Some((u, v))) => {
                let direction = attr("direction").ok_or(CodegenError::NoDirection)?;
                let (predicate, join) = match direction.as_str() {
                    "EQ" => ("oeq", "arith.andi"),
                    "NE" => ("une", "arith.ori"),
                    other => {
                        break 'value Err(CodegenError::ComplexDirection(other.to_string()));
                    }
                };
                let re = f.cmp(predicate, &x, &u);
                let im = f.cmp(predicate, &y, &v);
                break 'value Ok(f.body.op("v", "i1", format!("{join} {re}, {im} : i1")));
            }
            (Opcode::Exponential, _) => {
                let scale = f.op(Opcode::Exponential, &[&x]);
                f.polar(&scale, &y)
            }
            (Opcode::Log, _) => {
                let abs = f.abs(&x, &y);
                (f.op(Opcode::Log, &[&abs]), f.op(Opcode::Atan2, &[&y, &x]))
            }
            (Opcode::Sign, _) => f.sign(&x, &y),
            (Opcode::Sqrt, _) => f.sqrt(&x, &y),
            (Opcode::Rsqrt, _) => f.rsqrt(&x, &y),
            (Opcode::Sine | Opcode::Cosine, _) => f.sine_cosine(opcode == Opcode::Sine, &x, &y),
            (Opcode::Tanh, _) => f.tanh(&x, &y),
            _ => break 'value Err(not_lowered()),
        };
        Ok(f.create(&value.0, &value.1))
    };
    let value = value?;
    match f.error {
        Some(part) => Err(CodegenError::ComplexPart {
            opcode,
            element: a.element.mlir,
            part: Box::new(part),
        }),
        None => Ok(value),
    }
}

/// The real and imaginary parts (of float type `part`) of complex value `z`.
pub fn split(body: &mut Body, z: &str, part: Element) -> (Scalar, Scalar) {
    let (t, c) = (part.mlir, format!("complex<{}>", part.mlir));
    let re = body.op("re", t, format!("complex.re {z} : {c}"));
    let im = body.op("im", t, format!("complex.im {z} : {c}"));
    (re, im)
}

/// The complex value `re + i·im` of parts of float type `part`.
pub fn join(body: &mut Body, re: &str, im: &str, part: Element) -> Scalar {
    let c = format!("complex<{}>", part.mlir);
    body.op("z", &c, format!("complex.create {re}, {im} : {c}"))
}

/// Float arithmetic on the parts of complex values of one type.
struct Parts<'b> {
    body: &'b mut Body,
    /// The parts' float type.
    e: Element,
    /// The first float op the lowering refused (the value is then not written).
    error: Option<CodegenError>,
}

/// What a refused float op stands for until [`elementwise`] reports the refusal.
fn a_placeholder(args: &[&str]) -> String {
    args.first().map_or_else(String::new, |a| a.to_string())
}

/// A complex value as its real and imaginary parts (SSA names).
type Pair = (String, String);

impl Parts<'_> {
    /// The real and imaginary parts of complex value `z`.
    fn parts(&mut self, z: &str) -> Pair {
        let (re, im) = split(self.body, z, self.e);
        (re.name, im.name)
    }

    /// The complex value `re + i·im`.
    fn create(&mut self, re: &str, im: &str) -> Scalar {
        join(self.body, re, im, self.e)
    }

    /// HLO float op `opcode` on parts `args`, as `scalar.rs` lowers it.
    fn op(&mut self, opcode: Opcode, args: &[&str]) -> String {
        let typed: Vec<Typed> = args
            .iter()
            .map(|a| Typed {
                value: Scalar::new(*a, self.e.mlir),
                element: self.e,
            })
            .collect();
        match real_elementwise(self.body, opcode, &|_| None, self.e, &typed) {
            Ok(value) => value.name,
            Err(e) => {
                self.error.get_or_insert(e);
                a_placeholder(args)
            }
        }
    }

    /// A float constant.
    fn c(&mut self, value: f64) -> String {
        let literal = super::scalar::float_literal(value, self.e);
        self.body.constant(&literal, self.e.mlir).name
    }

    /// `arith.cmpf predicate, a, b`.
    fn cmp(&mut self, predicate: &str, a: &str, b: &str) -> String {
        let t = self.e.mlir;
        self.body
            .op("t", "i1", format!("arith.cmpf {predicate}, {a}, {b} : {t}"))
            .name
    }

    /// Whether `a` is NaN.
    fn is_nan(&mut self, a: &str) -> String {
        self.cmp("uno", a, a)
    }

    /// `a op b` of two `i1`s (`andi`, `ori`).
    fn logic(&mut self, op: &str, a: &str, b: &str) -> String {
        self.body
            .op("t", "i1", format!("arith.{op} {a}, {b} : i1"))
            .name
    }

    /// `condition ? a : b`.
    fn select(&mut self, condition: &str, a: &str, b: &str) -> String {
        let t = self.e.mlir;
        self.body
            .op("v", t, format!("arith.select {condition}, {a}, {b} : {t}"))
            .name
    }

    /// `condition ? a : b` of pairs.
    fn select_pair(&mut self, condition: &str, a: (&str, &str), b: (&str, &str)) -> Pair {
        (
            self.select(condition, a.0, b.0),
            self.select(condition, a.1, b.1),
        )
    }

    /// `|a|` with the sign of `b`.
    fn copysign(&mut self, a: &str, b: &str) -> String {
        let t = self.e.mlir;
        self.body
            .op("v", t, format!("math.copysign {a}, {b} : {t}"))
            .name
    }

    /// `scale · (cos θ + i sin θ)`.
    fn polar(&mut self, scale: &str, theta: &str) -> Pair {
        let cos = self.op(Opcode::Cosine, &[theta]);
        let sin = self.op(Opcode::Sine, &[theta]);
        (
            self.op(Opcode::Multiply, &[scale, &cos]),
            self.op(Opcode::Multiply, &[scale, &sin]),
        )
    }

    /// `(x + iy)(u + iv) = (xu - yv) + i(xv + yu)`.
    fn multiply(&mut self, (x, y): (&str, &str), (u, v): (&str, &str)) -> Pair {
        let xu = self.op(Opcode::Multiply, &[x, u]);
        let yv = self.op(Opcode::Multiply, &[y, v]);
        let xv = self.op(Opcode::Multiply, &[x, v]);
        let yu = self.op(Opcode::Multiply, &[y, u]);
        (
            self.op(Opcode::Subtract, &[&xu, &yv]),
            self.op(Opcode::Add, &[&xv, &yu]),
        )
    }

    /// `max(|x|, |y|)`, `min(|x|, |y|)` and `1 + (min / max)²`: the terms of the scaled
    /// hypotenuse, which does not overflow where `x² + y²` would.
    fn hypot_terms(&mut self, x: &str, y: &str) -> (String, String, String) {
        let ax = self.op(Opcode::Abs, &[x]);
        let ay = self.op(Opcode::Abs, &[y]);
        let max = self.op(Opcode::Maximum, &[&ax, &ay]);
        let min = self.op(Opcode::Minimum, &[&ax, &ay]);
        let ratio = self.op(Opcode::Divide, &[&min, &max]);
        let square = self.op(Opcode::Multiply, &[&ratio, &ratio]);
        let one = self.c(1.0);
        let sum = self.op(Opcode::Add, &[&one, &square]);
        (max, min, sum)
    }

    /// `|x + iy|` as `max · sqrt(1 + (min / max)²)`; where that is NaN (both 0, both infinite,
    /// a NaN part) the smaller magnitude.
    fn abs(&mut self, x: &str, y: &str) -> String {
        let (max, min, sum) = self.hypot_terms(x, y);
        let root = self.op(Opcode::Sqrt, &[&sum]);
        let r = self.op(Opcode::Multiply, &[&max, &root]);
        let nan = self.is_nan(&r);
        self.select(&nan, &min, &r)
    }

    /// `z / |z|`, and 0 for 0.
    fn sign(&mut self, x: &str, y: &str) -> Pair {
        let abs = self.abs(x, y);
        let zero = self.c(0.0);
        let is_zero = self.cmp("oeq", &abs, &zero);
        let re = self.op(Opcode::Divide, &[x, &abs]);
        let im = self.op(Opcode::Divide, &[y, &abs]);
        self.select_pair(&is_zero, (&zero, &zero), (&re, &im))
    }

    /// Smith's division, with XLA's answers where it gives NaN: a zero divisor gives infinities
    /// signed by the dividend, an infinite dividend over a finite divisor infinities, a finite
    /// dividend over an infinite divisor zeros.
    fn divide(&mut self, (x, y): (&str, &str), (u, v): (&str, &str)) -> Pair {
        let au = self.op(Opcode::Abs, &[u]);
        let av = self.op(Opcode::Abs, &[v]);
        let ratio_uv = self.op(Opcode::Divide, &[u, v]);
        let uu = self.op(Opcode::Multiply, &[&ratio_uv, u]);
        let denom_v = self.op(Opcode::Add, &[v, &uu]);
        let ratio_vu = self.op(Opcode::Divide, &[v, u]);
        let vv = self.op(Opcode::Multiply, &[&ratio_vu, v]);
        let denom_u = self.op(Opcode::Add, &[u, &vv]);
        let v_larger = self.cmp("olt", &au, &av);
        // |u| < |v|: ((x·u/v + y) + i(y·u/v - x)) / (v + u·u/v).
        let t = self.op(Opcode::Multiply, &[&ratio_uv, x]);
        let t = self.op(Opcode::Add, &[&t, y]);
        let re_v = self.op(Opcode::Divide, &[&t, &denom_v]);
        let t = self.op(Opcode::Multiply, &[&ratio_uv, y]);
        let t = self.op(Opcode::Subtract, &[&t, x]);
        let im_v = self.op(Opcode::Divide, &[&t, &denom_v]);
        // Otherwise: ((x + y·v/u) + i(y - x·v/u)) / (u + v·v/u).
        let t = self.op(Opcode::Multiply, &[&ratio_vu, y]);
        let t = self.op(Opcode::Add, &[&t, x]);
        let re_u = self.op(Opcode::Divide, &[&t, &denom_u]);
        let t = self.op(Opcode::Multiply, &[&ratio_vu, x]);
        let t = self.op(Opcode::Subtract, &[y, &t]);
        let im_u = self.op(Opcode::Divide, &[&t, &denom_u]);
        let (re, im) = self.select_pair(&v_larger, (&re_v, &im_v), (&re_u, &im_u));

        let zero = self.c(0.0);
        let one = self.c(1.0);
        let inf = self.c(f64::INFINITY);
        // A zero divisor and a dividend with a number part.
        let u_zero = self.cmp("oeq", &au, &zero);
        let v_zero = self.cmp("oeq", &av, &zero);
        let divisor_zero = self.logic("andi", &u_zero, &v_zero);
        let x_number = self.cmp("ord", x, &zero);
        let y_number = self.cmp("ord", y, &zero);
        let some_number = self.logic("ori", &x_number, &y_number);
        let by_zero = self.logic("andi", &divisor_zero, &some_number);
        let signed_inf = self.copysign(&inf, u);
        let by_zero_value = (
            self.op(Opcode::Multiply, &[&signed_inf, x]),
            self.op(Opcode::Multiply, &[&signed_inf, y]),
        );
        // An infinite dividend over a finite divisor.
        let ax = self.op(Opcode::Abs, &[x]);
        let ay = self.op(Opcode::Abs, &[y]);
        let [u_finite, v_finite, x_finite, y_finite] =
            [&au, &av, &ax, &ay].map(|m| self.cmp("one", m, &inf));
        let [u_inf, v_inf, x_inf, y_inf] = [&au, &av, &ax, &ay].map(|m| self.cmp("oeq", m, &inf));
        let dividend_inf = self.logic("ori", &x_inf, &y_inf);
        let divisor_finite = self.logic("andi", &u_finite, &v_finite);
        let inf_over_finite = self.logic("andi", &dividend_inf, &divisor_finite);
        let unit = |f: &mut Parts, infinite: &str, of: &str| {
            let s = f.select(infinite, &one, &zero);
            f.copysign(&s, of)
        };
        let (xs, ys) = (unit(self, &x_inf, x), unit(self, &y_inf, y));
        let minus_v = self.op_neg(v);
        let (re_i, im_i) = self.multiply((&xs, &ys), (u, &minus_v));
        let inf_over_finite_value = (
            self.op(Opcode::Multiply, &[&inf, &re_i]),
            self.op(Opcode::Multiply, &[&inf, &im_i]),
        );
        // A finite dividend over an infinite divisor.
        let divisor_inf = self.logic("ori", &u_inf, &v_inf);
        let dividend_finite = self.logic("andi", &x_finite, &y_finite);
        let finite_over_inf = self.logic("andi", &divisor_inf, &dividend_finite);
        let (us, vs) = (unit(self, &u_inf, u), unit(self, &v_inf, v));
        let minus_vs = self.op_neg(&vs);
        let (re_f, im_f) = self.multiply((x, y), (&us, &minus_vs));
        let finite_over_inf_value = (
            self.op(Opcode::Multiply, &[&zero, &re_f]),
            self.op(Opcode::Multiply, &[&zero, &im_f]),
        );

        let re_nan = self.is_nan(&re);
        let im_nan = self.is_nan(&im);
        let both_nan = self.logic("andi", &re_nan, &im_nan);
        let fixed = self.select_pair(
            &finite_over_inf,
            (&finite_over_inf_value.0, &finite_over_inf_value.1),
            (&re, &im),
        );
        let fixed = self.select_pair(
            &inf_over_finite,
            (&inf_over_finite_value.0, &inf_over_finite_value.1),
            (&fixed.0, &fixed.1),
        );
        let fixed = self.select_pair(
            &by_zero,
            (&by_zero_value.0, &by_zero_value.1),
            (&fixed.0, &fixed.1),
        );
        self.select_pair(&both_nan, (&fixed.0, &fixed.1), (&re, &im))
    }

    /// `-a`.
    fn op_neg(&mut self, a: &str) -> String {
        self.op(Opcode::Negate, &[a])
    }

    /// `sin` or `cos` of `x + iy`: `sin x cosh y + i cos x sinh y`, `cos x cosh y - i sin x sinh y`.
    fn sine_cosine(&mut self, sine: bool, x: &str, y: &str) -> Pair {
        let exp = self.op(Opcode::Exponential, &[y]);
        let half = self.c(0.5);
        let up = self.op(Opcode::Multiply, &[&half, &exp]);
        let down = self.op(Opcode::Divide, &[&half, &exp]);
        let sinh = self.op(Opcode::Subtract, &[&up, &down]);
        let cosh = self.op(Opcode::Add, &[&up, &down]);
        let sin = self.op(Opcode::Sine, &[x]);
        let cos = self.op(Opcode::Cosine, &[x]);
        if sine {
            (
                self.op(Opcode::Multiply, &[&sin, &cosh]),
                self.op(Opcode::Multiply, &[&cos, &sinh]),
            )
        } else {
            let im = self.op(Opcode::Multiply, &[&sin, &sinh]);
            (self.op(Opcode::Multiply, &[&cos, &cosh]), self.op_neg(&im))
        }
    }

    /// `tanh(a + ib) = (e^2a - e^-2a + 2i sin 2b) / (e^2a + e^-2a + 2 cos 2b)`, computed with
    /// `expm1` and `4 cos² b`, `4 sin b cos b`; `±1` where `e^2a + e^-2a` overflows, and XLA's
    /// answers for infinite and NaN parts.
    fn tanh(&mut self, a: &str, b: &str) -> Pair {
        let two_a = self.op(Opcode::Add, &[a, a]);
        let minus_two_a = self.op_neg(&two_a);
        let up = self.op(Opcode::ExponentialMinusOne, &[&two_a]);
        let down = self.op(Opcode::ExponentialMinusOne, &[&minus_two_a]);
        let re_num = self.op(Opcode::Subtract, &[&up, &down]);
        let cos = self.op(Opcode::Cosine, &[b]);
        let sin = self.op(Opcode::Sine, &[b]);
        let four = self.c(4.0);
        let cos_sq = self.op(Opcode::Multiply, &[&cos, &cos]);
        let four_cos_sq = self.op(Opcode::Multiply, &[&cos_sq, &four]);
        let sin_cos = self.op(Opcode::Multiply, &[&cos, &sin]);
        let im_num = self.op(Opcode::Multiply, &[&four, &sin_cos]);
        let sum = self.op(Opcode::Add, &[&up, &down]);
        let denom = self.op(Opcode::Add, &[&sum, &four_cos_sq]);
        let inf = self.c(f64::INFINITY);
        let overflow = self.cmp("oeq", &sum, &inf);
        let minus_one = self.c(-1.0);
        let limit = self.copysign(&minus_one, a);
        let quotient = self.op(Opcode::Divide, &[&re_num, &denom]);
        let re = self.select(&overflow, &limit, &quotient);
        let im = self.op(Opcode::Divide, &[&im_num, &denom]);
        let abs_a = self.op(Opcode::Abs, &[a]);
        let zero = self.c(0.0);
        let nan = self.c(f64::NAN);
        let a_inf = self.cmp("oeq", &abs_a, &inf);
        let b_zero = self.cmp("oeq", b, &zero);
        let sin_nan = self.is_nan(&im_num);
        let a_not_inf = self.cmp("une", &abs_a, &inf);
        let re_is_nan = self.logic("andi", &sin_nan, &a_not_inf);
        let inf_nan = self.logic("andi", &a_inf, &sin_nan);
        let im_is_zero = self.logic("ori", &b_zero, &inf_nan);
        (
            self.select(&re_is_nan, &nan, &re),
            self.select(&im_is_zero, &zero, &im),
        )
    }

    /// `sqrt(x + iy) = sqrt(r) (cos t/2 + i sin t/2)`, `r = |z|`, `t = arg z`, with `sqrt(r)`
    /// as `sqrt(max) · (1 + (min / max)²)^¼`; 0 for 0 and XLA's answers for infinite parts.
    fn sqrt(&mut self, x: &str, y: &str) -> Pair {
        let (max, min, sum) = self.hypot_terms(x, y);
        let root_max = self.op(Opcode::Sqrt, &[&max]);
        let quarter = self.c(0.25);
        let fourth = self.op(Opcode::Power, &[&sum, &quarter]);
        let r = self.op(Opcode::Multiply, &[&root_max, &fourth]);
        let r_nan = self.is_nan(&r);
        let r = self.select(&r_nan, &min, &r);
        let t = self.op(Opcode::Atan2, &[y, x]);
        let half = self.c(0.5);
        let angle = self.op(Opcode::Multiply, &[&t, &half]);
        let cos = self.op(Opcode::Cosine, &[&angle]);
        let sin = self.op(Opcode::Sine, &[&angle]);
        let zero = self.c(0.0);
        let inf = self.c(f64::INFINITY);
        let minus_inf = self.c(f64::NEG_INFINITY);
        let nan = self.c(f64::NAN);
        let ay = self.op(Opcode::Abs, &[y]);
        let y_inf = self.cmp("oeq", &ay, &inf);
        let x_inf = self.cmp("oeq", x, &inf);
        let x_minus_inf = self.cmp("oeq", x, &minus_inf);
        let y_finite = self.cmp("one", &ay, &inf);
        let re_inf = self.logic("ori", &y_inf, &x_inf);
        let re_zero = self.logic("andi", &x_minus_inf, &y_finite);
        let r_cos = self.op(Opcode::Multiply, &[&r, &cos]);
        let re = self.select(&re_zero, &zero, &r_cos);
        let re = self.select(&re_inf, &inf, &re);
        let im_inf = self.logic("ori", &y_inf, &x_minus_inf);
        let signed_inf = self.copysign(&inf, y);
        let r_sin = self.op(Opcode::Multiply, &[&r, &sin]);
        let sin_zero = self.cmp("oeq", &sin, &zero);
        let im = self.select(&sin_zero, &sin, &r_sin);
        let r_nan = self.is_nan(&r);
        let im = self.select(&r_nan, &nan, &im);
        let im = self.select(&im_inf, &signed_inf, &im);
        let r_zero = self.cmp("oeq", &r, &zero);
        self.select_pair(&r_zero, (&zero, &zero), (&re, &im))
    }

    /// `rsqrt(x + iy) = rsqrt(r) (cos -t/2 + i sin -t/2)`, with `rsqrt(r)` as
    /// `rsqrt(max) · rsqrt(sqrt(1 + (min / max)²))`; `(inf, NaN)` for 0 and signed zeros for
    /// infinite parts, as XLA.
    fn rsqrt(&mut self, x: &str, y: &str) -> Pair {
        let (max, min, sum) = self.hypot_terms(x, y);
        let root = self.op(Opcode::Sqrt, &[&sum]);
        let r_max = self.op(Opcode::Rsqrt, &[&max]);
        let r_root = self.op(Opcode::Rsqrt, &[&root]);
        let r = self.op(Opcode::Multiply, &[&r_max, &r_root]);
        let r_min = self.op(Opcode::Rsqrt, &[&min]);
        let r_nan = self.is_nan(&r);
        let r = self.select(&r_nan, &r_min, &r);
        let t = self.op(Opcode::Atan2, &[y, x]);
        let minus_half = self.c(-0.5);
        let angle = self.op(Opcode::Multiply, &[&t, &minus_half]);
        let (re, im) = self.polar(&r, &angle);
        let zero = self.c(0.0);
        let inf = self.c(f64::INFINITY);
        let nan = self.c(f64::NAN);
        let x_zero = self.cmp("oeq", x, &zero);
        let y_zero = self.cmp("oeq", y, &zero);
        let at_zero = self.logic("andi", &x_zero, &y_zero);
        let ax = self.op(Opcode::Abs, &[x]);
        let ay = self.op(Opcode::Abs, &[y]);
        let y_inf = self.cmp("oeq", &ay, &inf);
        let x_nan = self.is_nan(x);
        let x_inf = self.cmp("oeq", &ax, &inf);
        let inf_nan = self.logic("andi", &y_inf, &x_nan);
        let infinite = self.logic("ori", &inf_nan, &x_inf);
        let x_signed_zero = self.copysign(&zero, x);
        let y_signed_zero = self.copysign(&zero, y);
        let minus_y_signed_zero = self.op_neg(&y_signed_zero);
        let re = self.select(&infinite, &x_signed_zero, &re);
        let im = self.select(&infinite, &minus_y_signed_zero, &im);
        self.select_pair(&at_zero, (&inf, &nan), (&re, &im))
    }

    /// `(a + ib)^(c + id) = |z|^c · e^(-d·arg z) · (cos q + i sin q)`, `q = c·arg z + d·ln |z|`,
    /// with XLA's cases: `0^c` is 0 for `c > 0` and 1 for `c = 0`, `z^0 = 1`, `1^w = 1`,
    /// `inf^c` is `inf` for `c > 0` and 0 for `c < 0`.
    fn power(&mut self, (a, b): (&str, &str), (c, d): (&str, &str)) -> Pair {
        let abs = self.abs(a, b);
        let abs_c = self.op(Opcode::Power, &[&abs, c]);
        let arg = self.op(Opcode::Atan2, &[b, a]);
        let neg_d = self.op_neg(d);
        let t = self.op(Opcode::Multiply, &[&neg_d, &arg]);
        let e = self.op(Opcode::Exponential, &[&t]);
        let coeff = self.op(Opcode::Multiply, &[&abs_c, &e]);
        let ln = self.op(Opcode::Log, &[&abs]);
        let c_arg = self.op(Opcode::Multiply, &[c, &arg]);
        let d_ln = self.op(Opcode::Multiply, &[d, &ln]);
        let q = self.op(Opcode::Add, &[&c_arg, &d_ln]);
        let general = self.polar(&coeff, &q);
        let zero = self.c(0.0);
        let one = self.c(1.0);
        let inf = self.c(f64::INFINITY);
        let abs_zero = self.cmp("oeq", &abs, &zero);
        let d_zero = self.cmp("oeq", d, &zero);
        let c_nonneg = self.cmp("ole", &zero, c);
        let c_zero = self.cmp("oeq", &zero, c);
        let c_pos = self.cmp("ogt", c, &zero);
        let c_neg = self.cmp("olt", c, &zero);
        let a_one = self.cmp("oeq", a, &one);
        let a_inf = self.cmp("oeq", a, &inf);
        let b_zero = self.cmp("oeq", b, &zero);
        let t = self.logic("andi", &abs_zero, &d_zero);
        let zero_base = self.logic("andi", &t, &c_nonneg);
        let zero_base_re = self.select(&c_zero, &one, &zero);
        let v = self.select_pair(&zero_base, (&zero_base_re, &zero), (&general.0, &general.1));
        let zero_power = self.logic("andi", &c_zero, &d_zero);
        let v = self.select_pair(&zero_power, (&one, &zero), (&v.0, &v.1));
        let one_base = self.logic("andi", &a_one, &b_zero);
        let v = self.select_pair(&one_base, (&one, &zero), (&v.0, &v.1));
        let real_inf = self.logic("andi", &a_inf, &b_zero);
        let real_inf = self.logic("andi", &real_inf, &d_zero);
        let to_inf = self.logic("andi", &real_inf, &c_pos);
        let v = self.select_pair(&to_inf, (&inf, &zero), (&v.0, &v.1));
        let to_zero = self.logic("andi", &real_inf, &c_neg);
        self.select_pair(&to_zero, (&zero, &zero), (&v.0, &v.1))
    }
}
