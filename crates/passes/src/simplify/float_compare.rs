//! `arith.cmpf` of an integer converted to a float (`arith.sitofp`, `arith.uitofp`) against a
//! float constant, decided by the integer's range.
//!
//! Identity: where every value `x` of the integer has magnitude at most `2^p` (`p` the float
//! type's precision), the conversion is exact, so `fp(x) < c` is `x < c` over the reals, and so
//! for every predicate; a converted integer is never NaN, so ordered and unordered predicates
//! agree, unless `c` is NaN (then the ordered ones never hold and the unordered ones always do).
//! (`canonicalize` rewrites such compares into integer ones, after which the ranges decide them
//! too; deciding them here keeps the pass a fixed point by itself.)

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

    /// Whether `x <predicate> c` holds for every integer `x` of `[lo, hi]` (`Some(true)`), for
    /// none (`Some(false)`), or depends on `x`; `c` is not NaN, and `lo` and `hi` are exact as
    /// `f64`.
    fn over(self, lo: i128, hi: i128, c: f64) -> Option<bool> {
        use Predicate::*;
        let (lo_f, hi_f) = (lo as f64, hi as f64);
        match self {
            False | Unordered => Some(false),
            True | Ordered => Some(true),
            Lt => decision(hi_f < c, lo_f >= c),
            Le => decision(hi_f <= c, lo_f > c),
            Gt => decision(lo_f > c, hi_f <= c),
            Ge => decision(lo_f >= c, hi_f < c),
            Eq => decision(
                lo == hi && lo_f == c,
                hi_f < c || lo_f > c || c.fract() != 0.0,
            ),
            Ne => Eq.over(lo, hi, c).map(|eq| !eq),
        }
    }
}

/// Whether `op` (an `arith.cmpf`) always gives true or false, where one operand is an integer
/// converted exactly and the other a float constant.
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
    let exact = 1i128 << precision;
    if lo < -exact || hi > exact {
        return None;
    }
    if c.is_nan() {
        return Some(holds_for_nan);
    }
    predicate.over(lo, hi, c)
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
                            let Some(d) = predicate.over(lo, hi, c) else {
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

    fn predicate_of(p: i64) -> Predicate {
        predicate(p).unwrap().0
    }
}
