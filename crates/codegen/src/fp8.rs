//! The 8-bit float types (`f8e5m2`, `f8e4m3fn`, ...) kept as their bits (`i8`) and converted
//! to and from wider floats by integer arithmetic, with the rounding XLA's ml_dtypes gives:
//! nearest, ties to even, and out of range to infinity where the type has one, else to NaN.
//!
//! Every op but the conversions is computed on `f32` values and rounded back after each
//! (`elementwise.rs`), as XLA computes these types where the GPU has no arithmetic for them.

use super::body::{Body, Scalar};

/// An 8-bit float type: a sign, `exponent` bits and `mantissa` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8 {
    E5m2,
    E4m3,
    E3m4,
    E4m3fn,
    E4m3fnuz,
    E5m2fnuz,
    E4m3b11fnuz,
}

/// Which codes of an 8-bit float type are not finite numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// As IEEE's binary formats: the largest exponent holds infinity (mantissa 0) and NaN.
    Ieee,
    /// `fn`: no infinity; the all-ones exponent and mantissa are NaN, the rest finite.
    AllOnesNan,
    /// `fnuz`: no infinity and no negative zero; the code of negative zero is NaN.
    NegativeZeroNan,
}

impl Fp8 {
    /// The 8-bit float type XLA names `name`.
    pub fn of(name: &str) -> Option<Fp8> {
        use Fp8::*;
        Some(match name {
            "f8e5m2" => E5m2,
            "f8e4m3" => E4m3,
            "f8e3m4" => E3m4,
            "f8e4m3fn" => E4m3fn,
            "f8e4m3fnuz" => E4m3fnuz,
            "f8e5m2fnuz" => E5m2fnuz,
            "f8e4m3b11fnuz" => E4m3b11fnuz,
            _ => return None,
        })
    }

    /// Mantissa (fraction) bits; the exponent has the other `7 - mantissa`.
    fn mantissa(self) -> u32 {
        use Fp8::*;
        match self {
            E5m2 | E5m2fnuz => 2,
            E4m3 | E4m3fn | E4m3fnuz | E4m3b11fnuz => 3,
            E3m4 => 4,
        }
    }

    /// The exponent bias: a normal code with exponent field `e` is `2^(e - bias) * 1.f`.
    fn bias(self) -> i32 {
        use Fp8::*;
        match self {
            E5m2 => 15,
            E4m3 | E4m3fn => 7,
            E3m4 => 3,
            E4m3fnuz => 8,
            E5m2fnuz => 16,
            E4m3b11fnuz => 11,
        }
    }

    fn specials(self) -> Specials {
        use Fp8::*;
        match self {
            E5m2 | E4m3 | E3m4 => Specials::Ieee,
            E4m3fn => Specials::AllOnesNan,
            E4m3fnuz | E5m2fnuz | E4m3b11fnuz => Specials::NegativeZeroNan,
        }
    }

    /// The largest magnitude code (sign bit clear) of a finite value.
    fn max_finite(self) -> u32 {
        match self.specials() {
            Specials::Ieee => (0x7f >> self.mantissa() << self.mantissa()) - 1,
            Specials::AllOnesNan => 0x7e,
            Specials::NegativeZeroNan => 0x7f,
        }
    }

    /// The code `x` rounds to: what [`from_f32`] computes, for constants. (Wider values round
    /// to `f32` first, as ml_dtypes rounds them.)
    pub fn encode(self, x: f32) -> u8 {
        let m = self.mantissa();
        let bits = x.to_bits();
        let sign = bits >> 31;
        let abs = bits & 0x7fff_ffff;
        let magnitude = if x.abs() < 2f32.powi(1 - self.bias()) {
            // Subnormal: units of the smallest subnormal, rounded to even.
            (x.abs() * 2f32.powi(self.bias() - 1 + m as i32)).round_ties_even() as u32
        } else {
            let shift = 23 - m;
            let up = u64::from(abs) + (1 << (shift - 1)) - 1 + u64::from((abs >> shift) & 1);
            (up >> shift) as u32 - ((127 - self.bias() as u32) << m)
        };
        self.finish(sign, magnitude, x.is_nan()) as u8
    }

    /// The code of sign `sign` and rounded magnitude code `magnitude` (beyond the finite ones
    /// when the value overflows), NaN where `nan`.
    fn finish(self, sign: u32, magnitude: u32, nan: bool) -> u32 {
        let m = self.mantissa();
        let overflow = magnitude > self.max_finite();
        match self.specials() {
            Specials::Ieee => {
                let infinity = 0x7f >> m << m;
                let magnitude = if nan {
                    infinity | 1 << (m - 1)
                } else if overflow {
                    infinity
                } else {
                    magnitude
                };
                sign << 7 | magnitude
            }
            Specials::AllOnesNan if overflow || nan => sign << 7 | 0x7f,
            Specials::AllOnesNan => sign << 7 | magnitude,
            Specials::NegativeZeroNan if overflow || nan => 0x80,
            Specials::NegativeZeroNan if magnitude == 0 => 0,
            Specials::NegativeZeroNan => sign << 7 | magnitude,
        }
    }
}

/// Integer ops of one width written into a body: the conversions' arithmetic.
struct Ops<'a> {
    body: &'a mut Body,
    /// The integer type (`i32`, `i64`).
    int: &'static str,
}

impl Ops<'_> {
    /// `%v = <text>` of type `ty`, its name.
    fn op(&mut self, text: String, ty: &str) -> String {
        self.body.op("fp8", ty, text).name
    }

    /// An op on the integer type.
    fn int(&mut self, text: String) -> String {
        let int = self.int;
        self.op(format!("{text} : {int}"), int)
    }

    /// An integer constant.
    fn c(&mut self, v: i64) -> String {
        let int = self.int;
        self.op(format!("arith.constant {v} : {int}"), int)
    }

    /// `a <predicate> b` on integers.
    fn cmp(&mut self, predicate: &str, a: &str, b: &str) -> String {
        let int = self.int;
        self.op(format!("arith.cmpi {predicate}, {a}, {b} : {int}"), "i1")
    }

    /// `cond ? a : b` of type `ty`.
    fn select(&mut self, cond: &str, a: &str, b: &str, ty: &str) -> String {
        self.op(format!("arith.select {cond}, {a}, {b} : {ty}"), ty)
    }
}

/// The `f32` value of the code `bits` (`i8`) of `fp8`: `sig * 2^(max(e, 1) - bias - m)` with
/// `sig` the mantissa and the implicit bit of normal codes, exact in `f32`; then the sign and
/// the type's infinities and NaN.
pub(crate) fn to_f32(body: &mut Body, fp8: Fp8, bits: &str) -> Scalar {
    let m = fp8.mantissa();
    let mut o = Ops { body, int: "i32" };
    let b = o.op(format!("arith.extui {bits} : i8 to i32"), "i32");
    let (c0, c1, c7, c0x7f) = (o.c(0), o.c(1), o.c(7), o.c(0x7f));
    let sign = o.int(format!("arith.shrui {b}, {c7}"));
    let magnitude = o.int(format!("arith.andi {b}, {c0x7f}"));
    let cm = o.c(m as i64);
    let e = o.int(format!("arith.shrui {magnitude}, {cm}"));
    let cmask = o.c((1 << m) - 1);
    let f = o.int(format!("arith.andi {magnitude}, {cmask}"));
    let subnormal = o.cmp("eq", &e, &c0);
    let implicit = o.c(1 << m);
    let with_implicit = o.int(format!("arith.ori {f}, {implicit}"));
    let sig = o.select(&subnormal, &f, &with_implicit, "i32");
    // The scale 2^(max(e, 1) - bias - m) as f32 bits: its biased exponent shifted into place.
    let e1 = o.int(format!("arith.maxui {e}, {c1}"));
    let rebias = o.c(127 - fp8.bias() as i64 - m as i64);
    let scale_e = o.int(format!("arith.addi {e1}, {rebias}"));
    let c23 = o.c(23);
    let scale_bits = o.int(format!("arith.shli {scale_e}, {c23}"));
    let scale = o.op(format!("arith.bitcast {scale_bits} : i32 to f32"), "f32");
    let sig_f = o.op(format!("arith.uitofp {sig} : i32 to f32"), "f32");
    let value = o.op(format!("arith.mulf {sig_f}, {scale} : f32"), "f32");
    let negative = o.cmp("ne", &sign, &c0);
    let negated = o.op(format!("arith.negf {value} : f32"), "f32");
    let signed = o.select(&negative, &negated, &value, "f32");
    let nan = o.op("arith.constant 0x7FC00000 : f32".into(), "f32");
    let result = match fp8.specials() {
        Specials::Ieee => {
            let all_ones = o.c((0x7f >> m) as i64);
            let top = o.cmp("eq", &e, &all_ones);
            let zero_f = o.cmp("eq", &f, &c0);
            let inf = o.op("arith.constant 0x7F800000 : f32".into(), "f32");
            let neg_inf = o.op("arith.constant 0xFF800000 : f32".into(), "f32");
            let infinity = o.select(&negative, &neg_inf, &inf, "f32");
            let special = o.select(&zero_f, &infinity, &nan, "f32");
            o.select(&top, &special, &signed, "f32")
        }
        Specials::AllOnesNan => {
            let is_nan = o.cmp("eq", &magnitude, &c0x7f);
            o.select(&is_nan, &nan, &signed, "f32")
        }
        Specials::NegativeZeroNan => {
            let c0x80 = o.c(0x80);
            let is_nan = o.cmp("eq", &b, &c0x80);
            o.select(&is_nan, &nan, &signed, "f32")
        }
    };
    Scalar::new(result, "f32")
}

/// The code (`i8`) of `fp8` that the `f32` value `x` rounds to, as [`Fp8::encode`]: normal
/// magnitudes by rounding the bits (exponent and mantissa together, so that a carry moves to
/// the next binade) to nearest even and rebiasing; subnormal ones by scaling to units of the
/// smallest subnormal and `math.roundeven`; then the type's overflow, NaN and zero rules.
pub(crate) fn from_f32(body: &mut Body, fp8: Fp8, x: &str) -> Scalar {
    let (int, ty) = ("i32", "f32");
    let m = fp8.mantissa();
    let mut o = Ops { body, int };
    let bits = o.op(format!("arith.bitcast {x} : {ty} to {int}"), int);
    let c_sign = o.c(31);
    let sign = o.int(format!("arith.shrui {bits}, {c_sign}"));
    let c_abs = o.c(0x7fff_ffff);
    let abs = o.int(format!("arith.andi {bits}, {c_abs}"));
    // Normal: round the bits below the kept mantissa to nearest even, then rebias.
    let shift = 23 - m;
    let (c_shift, c_one) = (o.c(shift as i64), o.c(1));
    let lsb_word = o.int(format!("arith.shrui {abs}, {c_shift}"));
    let lsb = o.int(format!("arith.andi {lsb_word}, {c_one}"));
    let c_half = o.c((1i64 << (shift - 1)) - 1);
    let up = o.int(format!("arith.addi {abs}, {c_half}"));
    let up = o.int(format!("arith.addi {up}, {lsb}"));
    let rounded = o.int(format!("arith.shrui {up}, {c_shift}"));
    let c_rebias = o.c((127 - fp8.bias() as i64) << m);
    let normal = o.int(format!("arith.subi {rounded}, {c_rebias}"));
    // Subnormal: the magnitude in units of the smallest subnormal, rounded to even; at most
    // 2^m (the smallest normal), and only read below the smallest normal.
    let magnitude_f = o.op(format!("math.absf {x} : {ty}"), ty);
    let units = 2f64.powi(fp8.bias() - 1 + m as i32);
    let c_units = o.op(format!("arith.constant {units:?} : {ty}"), ty);
    let scaled = o.op(format!("arith.mulf {magnitude_f}, {c_units} : {ty}"), ty);
    let even = o.op(format!("math.roundeven {scaled} : {ty}"), ty);
    let c_cap = o.op(
        format!("arith.constant {:?} : {ty}", (1u32 << m) as f64),
        ty,
    );
    let capped = o.op(format!("arith.minimumf {even}, {c_cap} : {ty}"), ty);
    let subnormal = o.op(format!("arith.fptoui {capped} : {ty} to {int}"), int);
    let c_min_normal = o.c((128 - fp8.bias() as i64) << 23);
    let small = o.cmp("ult", &abs, &c_min_normal);
    let magnitude = o.select(&small, &subnormal, &normal, int);
    let c_max = o.c(fp8.max_finite() as i64);
    let overflow = o.cmp("ugt", &magnitude, &c_max);
    let nan = o.op(format!("arith.cmpf uno, {x}, {x} : {ty}"), "i1");
    let c7 = o.c(7);
    let sign_bit = o.int(format!("arith.shli {sign}, {c7}"));
    let code = match fp8.specials() {
        Specials::Ieee => {
            let infinity = o.c((0x7f >> m << m) as i64);
            let quiet = o.c(((0x7f >> m << m) | 1 << (m - 1)) as i64);
            let finite = o.select(&overflow, &infinity, &magnitude, int);
            let magnitude = o.select(&nan, &quiet, &finite, int);
            o.int(format!("arith.ori {sign_bit}, {magnitude}"))
        }
        Specials::AllOnesNan => {
            let all_ones = o.c(0x7f);
            let bad = o.op(format!("arith.ori {overflow}, {nan} : i1"), "i1");
            let magnitude = o.select(&bad, &all_ones, &magnitude, int);
            o.int(format!("arith.ori {sign_bit}, {magnitude}"))
        }
        Specials::NegativeZeroNan => {
            let (c_nan, c_zero) = (o.c(0x80), o.c(0));
            let bad = o.op(format!("arith.ori {overflow}, {nan} : i1"), "i1");
            let zero = o.cmp("eq", &magnitude, &c_zero);
            let signed = o.int(format!("arith.ori {sign_bit}, {magnitude}"));
            let unsigned_zero = o.select(&zero, &c_zero, &signed, int);
            o.select(&bad, &c_nan, &unsigned_zero, int)
        }
    };
    let code = o.op(format!("arith.trunci {code} : {int} to i8"), "i8");
    Scalar::new(code, "i8")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ml_dtypes' decoding and rounding (`tests/data/fp8_ml_dtypes.txt`, written by
    /// `fp8_generate.py` beside it).
    const GOLDEN: &str = include_str!("../tests/data/fp8_ml_dtypes.txt");

    #[test]
    fn encode_rounds_as_ml_dtypes() {
        let (mut fp8, mut decoded) = (None, Vec::new());
        let mut checked = 0;
        for line in GOLDEN.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(' ').collect();
            let x = match fields[0] {
                "type" => {
                    fp8 = Fp8::of(fields[1]);
                    assert!(fp8.is_some(), "{line}");
                    continue;
                }
                "decode" => {
                    decoded = fields[1..]
                        .iter()
                        .map(|w| f32::from_bits(u32::from_str_radix(w, 16).unwrap()))
                        .collect();
                    continue;
                }
                "f32" => f32::from_bits(u32::from_str_radix(fields[1], 16).unwrap()),
                // ml_dtypes rounds f64 values to f32 first, and so do we.
                _ => f64::from_bits(u64::from_str_radix(fields[1], 16).unwrap()) as f32,
            };
            let want: u8 = fields[2].parse().unwrap();
            let got = fp8.unwrap().encode(x);
            // NaN codes may differ in sign and payload.
            if decoded[usize::from(want)].is_nan() {
                assert!(decoded[usize::from(got)].is_nan(), "{line}: {got:#x}");
            } else {
                assert_eq!(got, want, "{line}: {got:#x}");
            }
            checked += 1;
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn the_largest_finite_codes() {
        assert_eq!(Fp8::E5m2.max_finite(), 0x7b);
        assert_eq!(Fp8::E4m3.max_finite(), 0x77);
        assert_eq!(Fp8::E4m3fn.max_finite(), 0x7e);
        assert_eq!(Fp8::E4m3fn.encode(448.0), 0x7e);
        assert_eq!(
            Fp8::E4m3fn.encode(464.0),
            0x7e,
            "a tie goes to the even code"
        );
        assert_eq!(Fp8::E4m3fn.encode(465.0), 0x7f, "beyond the tie: NaN");
        assert_eq!(Fp8::E5m2.encode(-1e9), 0xfc);
        assert_eq!(Fp8::E4m3fnuz.encode(-0.0), 0);
    }
}
