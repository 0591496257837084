//! Closed integer intervals `[lo, hi]` over `i64` with saturating arithmetic.
//!
//! An interval whose endpoint sits at `i64::MIN` or `i64::MAX` may stand for a value that saturated,
//! so it is never treated as exact; everything that derives facts from intervals (the simplifier,
//! constraint checks) only trusts comparisons, which stay sound under saturation because saturation
//! only widens.

use std::fmt;

/// A closed interval of integers. Empty when `lo > hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Interval {
    /// The least value (inclusive).
    pub lo: i64,
    /// The greatest value (inclusive); the interval is empty when it is below `lo`.
    pub hi: i64,
}

impl Interval {
    /// The interval `[lo, hi]`.
    pub const fn new(lo: i64, hi: i64) -> Self {
        Interval { lo, hi }
    }

    /// The single value `v`.
    pub const fn point(v: i64) -> Self {
        Interval { lo: v, hi: v }
    }

    /// `[0, size - 1]`, the index range of a dimension of `size` elements.
    pub const fn upto(size: i64) -> Self {
        Interval {
            lo: 0,
            hi: size.saturating_sub(1),
        }
    }

    /// Every `i64`.
    pub const FULL: Interval = Interval {
        lo: i64::MIN,
        hi: i64::MAX,
    };

    /// Whether the interval holds at least one value.
    pub fn is_feasible(self) -> bool {
        self.lo <= self.hi
    }

    /// The single value of a point interval.
    pub fn as_point(self) -> Option<i64> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// Whether `v` lies in the interval.
    pub fn contains(self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether `other` lies inside `self` (an empty `other` always does).
    pub fn contains_interval(self, other: Interval) -> bool {
        !other.is_feasible() || (self.lo <= other.lo && other.hi <= self.hi)
    }

    /// Number of values, saturating; 0 when empty.
    pub fn count(self) -> u128 {
        if self.is_feasible() {
            (self.hi as i128 - self.lo as i128 + 1) as u128
        } else {
            0
        }
    }

    /// The common part (may be empty).
    pub fn intersect(self, other: Interval) -> Interval {
        Interval::new(self.lo.max(other.lo), self.hi.min(other.hi))
    }

    /// The smallest interval holding both.
    pub fn hull(self, other: Interval) -> Interval {
        if !self.is_feasible() {
            return other;
        }
        if !other.is_feasible() {
            return self;
        }
        Interval::new(self.lo.min(other.lo), self.hi.max(other.hi))
    }

    /// `{a * k}` for a constant `k`, saturating.
    pub fn scale(self, k: i64) -> Interval {
        let (a, b) = (self.lo.saturating_mul(k), self.hi.saturating_mul(k));
        Interval::new(a.min(b), a.max(b))
    }

    /// `{floor(a / k)}` for a constant `k != 0`.
    pub fn floor_div(self, k: i64) -> Interval {
        assert!(k != 0, "interval division by zero");
        let (a, b) = (floor_div(self.lo, k), floor_div(self.hi, k));
        Interval::new(a.min(b), a.max(b))
    }

    /// `{ceil(a / k)}` for a constant `k != 0`.
    pub fn ceil_div(self, k: i64) -> Interval {
        assert!(k != 0, "interval division by zero");
        let (a, b) = (ceil_div(self.lo, k), ceil_div(self.hi, k));
        Interval::new(a.min(b), a.max(b))
    }

    /// `{a mod k}` (floor semantics) for a constant `k != 0`: exact when the interval does not
    /// wrap around a multiple of `k`, else the full residue range.
    pub fn modulo(self, k: i64) -> Interval {
        assert!(k != 0, "interval modulo by zero");
        if self.is_feasible() && floor_div(self.lo, k) == floor_div(self.hi, k) {
            Interval::new(mod_floor(self.lo, k), mod_floor(self.hi, k))
        } else if k > 0 {
            Interval::new(0, k - 1)
        } else {
            Interval::new(k + 1, 0)
        }
    }

    /// `{min(a, b)}` for `a` in `self` and `b` in `other` (both feasible): exact, since the least
    /// and the greatest values come from the lower and the upper ends.
    pub fn pointwise_min(self, other: Interval) -> Interval {
        Interval::new(self.lo.min(other.lo), self.hi.min(other.hi))
    }

    /// `{max(a, b)}` for `a` in `self` and `b` in `other` (both feasible), exact likewise.
    pub fn pointwise_max(self, other: Interval) -> Interval {
        Interval::new(self.lo.max(other.lo), self.hi.max(other.hi))
    }

    /// Three-valued `a < b` for every `a` in `self`, `b` in `other`.
    pub fn lt(self, other: Interval) -> Option<bool> {
        if self.hi < other.lo {
            Some(true)
        } else if self.lo >= other.hi {
            Some(false)
        } else {
            None
        }
    }

    /// Three-valued `a <= b`.
    pub fn le(self, other: Interval) -> Option<bool> {
        if self.hi <= other.lo {
            Some(true)
        } else if self.lo > other.hi {
            Some(false)
        } else {
            None
        }
    }

    /// Three-valued `a > b`.
    pub fn gt(self, other: Interval) -> Option<bool> {
        other.lt(self)
    }

    /// Three-valued `a >= b`.
    pub fn ge(self, other: Interval) -> Option<bool> {
        other.le(self)
    }

    /// Three-valued `a == b`.
    pub fn eq_values(self, other: Interval) -> Option<bool> {
        match (self.as_point(), other.as_point()) {
            (Some(a), Some(b)) if a == b => Some(true),
            _ if self.intersect(other).is_feasible() => None,
            _ => Some(false),
        }
    }
}

impl std::ops::Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval::new(self.lo.saturating_add(o.lo), self.hi.saturating_add(o.hi))
    }
}

impl std::ops::Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        self + (-o)
    }
}

impl std::ops::Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval::new(self.hi.saturating_neg(), self.lo.saturating_neg())
    }
}

impl std::ops::Mul for Interval {
    type Output = Interval;
    fn mul(self, o: Interval) -> Interval {
        let c = [
            self.lo.saturating_mul(o.lo),
            self.lo.saturating_mul(o.hi),
            self.hi.saturating_mul(o.lo),
            self.hi.saturating_mul(o.hi),
        ];
        Interval::new(*c.iter().min().unwrap_or(&0), *c.iter().max().unwrap_or(&0))
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.lo, self.hi)
    }
}

/// Steps `point` to the next point of the box `bounds` in lexicographic order (the last
/// coordinate fastest); `false`, with `point` back at the first point, after the last one.
/// `point` starts at the lower bounds, and every bound is feasible.
pub(crate) fn next_point(point: &mut [i64], bounds: &[Interval]) -> bool {
    for (x, b) in point.iter_mut().zip(bounds).rev() {
        if *x < b.hi {
            *x += 1;
            return true;
        }
        *x = b.lo;
    }
    false
}

/// `floor(a / b)` for `b != 0`, saturating (only `i64::MIN / -1` saturates).
pub fn floor_div(a: i64, b: i64) -> i64 {
    let q = a.saturating_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `ceil(a / b)` for `b != 0`, saturating.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.saturating_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// `a - floor(a / b) * b`: the remainder with the sign of `b`.
pub fn mod_floor(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// `v` as a two's complement integer of `width` bits (0 to 64) holds it: wrapped into
/// `[-2^(width-1), 2^(width-1) - 1]` (an `i0` holds only 0).
pub fn wrap_signed(v: i128, width: u32) -> i128 {
    if width == 0 {
        return 0;
    }
    let m = 1i128 << width;
    let u = v.rem_euclid(m);
    if u >= m / 2 { u - m } else { u }
}

/// `v`, an integer of `width` bits (0 to 64), read as unsigned.
pub fn as_unsigned(v: i128, width: u32) -> i128 {
    v.rem_euclid(1i128 << width)
}

/// Greatest common divisor of the absolute values (`gcd(0, 0) = 0`). The one magnitude that does
/// not fit, `2^63` (when both are `0` or `i64::MIN`), is returned as `i64::MIN`: a value with the
/// same divisors, never a wrong positive one.
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MIN)
}

/// Least common multiple of the absolute values, `None` on overflow.
pub fn lcm(a: i64, b: i64) -> Option<i64> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    a.checked_div(gcd(a, b))?.checked_mul(b)?.checked_abs()
}
