//! `arith.cmpf` of an integer converted to a float (`arith.sitofp`, `arith.uitofp`) against a
//! float constant, decided by the integer's range.
//!
//! Identity: the conversion rounds to nearest (ties to even, as LLVM's `sitofp` and `uitofp`
//! do), which never reverses an order, so every `x` of the integer's range `[lo, hi]` converts
//! into `[fp(lo), fp(hi)]`: `fp(x) < c` always holds where `fp(hi) < c` and never where
//! `fp(lo) >= c`, and so for every predicate; `fp(x) == c` always holds where `fp(lo) = fp(hi) = c`, and
//! never where `c` is finite and not an integer (a converted integer is an integer or, beyond
//! `f16`'s largest value 65504, infinite). Within `2^p` (`p` the type's precision) the
//! conversion is exact. A converted integer is never NaN, so ordered and unordered predicates
//! agree, unless `c` is NaN (then the ordered ones never hold and the unordered ones always do).
//! (`canonicalize` rewrites exact ones into integer compares, after which the ranges decide
//! them too; deciding them here keeps the pass a fixed point by itself.)

use melior::ir::{OperationRef, ValueLike, operation::OperationLike};

use xla_indexing_mlir::ir::{
    defining_op, float_attribute, float_precision, int_width, integer_attribute, op_name,
};

use super::{conditions::decision, values::IndexValues};

/// What `arith.cmpf` compares for (its ordered and unordered forms alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Predicate {
    False,
    Eq,
    Gt,
    Ge,
    Lt,
    Le,
    Ne,
    Ordered,
    Unordered,
    True,
}

/// The predicate of `arith.cmpf`'s `predicate` value (MLIR's `CmpFPredicate`), with what it
/// gives when an operand is NaN (false for the ordered ones, true for the unordered ones).
fn predicate(value: i64) -> Option<(Predicate, bool)> {
    use Predicate::*;
    const ALL: [Predicate; 16] = [
        False, Eq, Gt, Ge, Lt, Le, Ne, Ordered, Eq, Gt, Ge, Lt, Le, Ne, Unordered, True,
    ];
    let i = usize::try_from(value).ok()?;
    Some((*ALL.get(i)?, i >= 8))
}

impl Predicate {
    /// The predicate with its operands swapped (`c < x` is `x > c`).
    fn swapped(self) -> Self {
        use Predicate::*;
        match self {
            Gt => Lt,
            Ge => Le,
            Lt => Gt,
            Le => Ge,
            other => other,
        }
    }

    /// Whether `fp(x) <predicate> c` holds for every integer `x` of a range whose least and
    /// greatest conversions are `lo_f` and `hi_f` (`Some(true)`), for none (`Some(false)`), or
    /// depends on `x`; `c` is not NaN.
    fn over(self, lo_f: f64, hi_f: f64, c: f64) -> Option<bool> {
        use Predicate::*;
        match self {
            False | Unordered => Some(false),
            True | Ordered => Some(true),
            Lt => decision(hi_f < c, lo_f >= c),
            Le => decision(hi_f <= c, lo_f > c),
            Gt => decision(lo_f > c, hi_f <= c),
            Ge => decision(lo_f >= c, hi_f < c),
            Eq => decision(
                lo_f == hi_f && lo_f == c,
                hi_f < c || lo_f > c || (c.is_finite() && c.fract() != 0.0),
            ),
            Ne => Eq.over(lo_f, hi_f, c).map(|eq| !eq),
        }
    }
}

/// The float that the integer `x` (of at most 64 bits, or 65 unsigned) converts to in the type
/// of `precision` bits (`f16`, `bf16`, `f32` or `f64`): rounded to nearest, ties to even, and
/// infinite in `f16` beyond its largest finite value, 65504.
fn to_float(x: i128, precision: u32) -> f64 {
    let magnitude = x.unsigned_abs();
    let bits = 128 - magnitude.leading_zeros();
    let rounded = if bits <= precision {
        magnitude
    } else {
        let shift = bits - precision;
        let (quotient, rest) = (magnitude >> shift, magnitude & ((1 << shift) - 1));
        let half = 1 << (shift - 1);
        let up = rest > half || (rest == half && quotient & 1 == 1);
        (quotient + u128::from(up)) << shift
    };
    // At most `precision` significant bits (53 or fewer): exact as `f64`.
    let value = rounded as f64;
    let value = if precision == F16_PRECISION && value > F16_MAX {
        f64::INFINITY
    } else {
        value
    };
    if x < 0 { -value } else { value }
}

/// `f16`'s precision and its largest finite value (the only type of `float_precision`'s that
/// a 64-bit integer can overflow).
const F16_PRECISION: u32 = 11;
const F16_MAX: f64 = 65504.0;

/// Whether `op` (an `arith.cmpf`) always gives true or false, where one operand is a converted
/// integer and the other a float constant.
pub(super) fn decide_cmpf(values: &mut IndexValues, op: &OperationRef) -> Option<bool> {
    let (predicate, holds_for_nan) =
        predicate(integer_attribute(op.attribute("predicate").ok()?)?)?;
    let constant_of = |i: usize| -> Option<f64> {
        let producer = defining_op(op.operand(i).ok()?)?;
        (op_name(&producer) == "arith.constant")
            .then(|| float_attribute(producer.attribute("value").ok()?))
            .flatten()
    };
    let (converted, c, predicate) = match (constant_of(0), constant_of(1)) {
        (None, Some(c)) => (0, c, predicate),
        (Some(c), None) => (1, c, predicate.swapped()),
        _ => return None,
    };
    let conversion = defining_op(op.operand(converted).ok()?)?;
    let unsigned = match op_name(&conversion).as_str() {
        "arith.sitofp" => false,
        "arith.uitofp" => true,
        _ => return None,
    };
    let integer = conversion.operand(0).ok()?;
    let width = int_width(integer.r#type())?;
    let precision = float_precision(op.operand(converted).ok()?.r#type())?;
    // Booleans are read as 0 and 1, and a signed true converts to -1.
    if !(2..=64).contains(&width) {
        return None;
    }
    let range = values.known(integer)?.range;
    let (mut lo, mut hi) = (i128::from(range.lo), i128::from(range.hi));
    if unsigned && lo < 0 {
        let modulus = 1i128 << width;
        (lo, hi) = if hi < 0 {
            (lo + modulus, hi + modulus)
        } else {
            (0, modulus - 1)
        };
    }
    if c.is_nan() {
        return Some(holds_for_nan);
    }
    predicate.over(to_float(lo, precision), to_float(hi, precision), c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each predicate decided over a range agrees with comparing each value of it.
    #[test]
    fn every_predicate_agrees_with_comparing_each_value() {
        let constants = [-2.5, -1.0, 0.0, 0.5, 1.0, 3.0, 7.25];
        for p in 0..16 {
            let (predicate, _) = predicate(p).unwrap();
            let holds = |x: f64, c: f64| match p {
                0 | 14 => false,
                1 | 8 => x == c,
                2 | 9 => x > c,
                3 | 10 => x >= c,
                4 | 11 => x < c,
                5 | 12 => x <= c,
                6 | 13 => x != c,
                _ => true,
            };
            for lo in -3i128..=4 {
                for hi in lo..=4 {
                    for &c in &constants {
                        for (c, predicate) in [(c, predicate), (c, predicate.swapped())] {
                            let Some(d) = predicate.over(lo as f64, hi as f64, c) else {
                                continue;
                            };
                            let swapped = predicate != predicate_of(p);
                            assert!(
                                (lo..=hi).all(|x| {
                                    let x = x as f64;
                                    if swapped { holds(c, x) } else { holds(x, c) }
                                } == d),
                                "predicate {p} over [{lo}, {hi}] against {c}: decided {d}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Conversions agree with Rust's (which round to nearest, ties to even) for `f32` and `f64`,
    /// and with values worked out by hand for `bf16` and `f16`.
    #[test]
    fn conversions_round_to_nearest_even() {
        let mut x = 0x2545_f491_4f6c_dd1d_i64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for v in [x, x >> 20, x >> 37, x >> 45] {
                let v = i128::from(v);
                assert_eq!(to_float(v, 24), v as f32 as f64, "{v} to f32");
                assert_eq!(to_float(v, 53), v as f64, "{v} to f64");
            }
        }
        assert_eq!(to_float(u64::MAX.into(), 24), u64::MAX as f32 as f64);
        for (v, bf16) in [(257, 256.0), (259, 260.0), (-259, -260.0), (383, 384.0)] {
            assert_eq!(to_float(v, 8), bf16, "{v} to bf16");
        }
        let f16 = [(2049, 2048.0), (2051, 2052.0), (65519, 65504.0)];
        for (v, f16) in f16
            .into_iter()
            .chain([(65520, f64::INFINITY), (-70000, f64::NEG_INFINITY)])
        {
            assert_eq!(to_float(v, 11), f16, "{v} to f16");
        }
    }

    /// Over ranges where `f32` rounds and where `f16` overflows, each predicate decided agrees
    /// with converting and comparing each value.
    #[test]
    fn decisions_past_exact_conversion_agree_with_each_value() {
        let cases = [
            (
                24,
                1i128 << 24,
                [
                    (1 << 24) as f64,
                    ((1 << 24) + 2) as f64,
                    ((1 << 24) + 4) as f64,
                ],
            ),
            (F16_PRECISION, 65500, [F16_MAX, 65472.0, f64::INFINITY]),
        ];
        for (precision, base, near) in cases {
            let constants = near
                .into_iter()
                .chain([0.5, f64::INFINITY, f64::NEG_INFINITY]);
            let constants: Vec<f64> = constants.collect();
            for p in 0..16 {
                let (predicate, _) = predicate(p).unwrap();
                for lo in base - 40..base + 30 {
                    for hi in (lo..base + 30).step_by(3) {
                        let ends = (to_float(lo, precision), to_float(hi, precision));
                        for &c in &constants {
                            let Some(d) = predicate.over(ends.0, ends.1, c) else {
                                continue;
                            };
                            assert!(
                                (lo..=hi)
                                    .all(|x| compares(predicate, to_float(x, precision), c) == d),
                                "predicate {p} over [{lo}, {hi}] against {c} (precision {precision}): decided {d}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// `x <predicate> c` for one value (`c` not NaN, and `x` never is).
    fn compares(predicate: Predicate, x: f64, c: f64) -> bool {
        use Predicate::*;
        match predicate {
            False | Unordered => false,
            True | Ordered => true,
            Eq => x == c,
            Gt => x > c,
            Ge => x >= c,
            Lt => x < c,
            Le => x <= c,
            Ne => x != c,
        }
    }

    fn predicate_of(p: i64) -> Predicate {
        predicate(p).unwrap().0
    }
}
